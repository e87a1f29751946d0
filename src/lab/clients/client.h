// ClientAdapter: what the lab needs to run one HTTP client runtime: how to build its program
// (once per run, into a cache directory), the command that runs it, its version, what DNS
// cache and connection reuse it documents (the expected values of E6, E7 and E11), and which
// cases it cannot run ("not supported: ...", never a silent skip). One file per runtime under
// src/lab/clients/, each listed once in registry.cpp. Every program prints the per-request log
// of request_log.h. Adapters are stateless and thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"

namespace cutover::lab {

// The address cache a runtime keeps on top of the resolver (docs/lab.md, "Client runtimes").
struct ClientCache {
  enum class Kind { kNone, kFromFirstLookup, kForever };
  Kind kind = Kind::kNone;
  double seconds = 0;           // kFromFirstLookup: the lifetime, counted from the lookup
  double negative_seconds = 0;  // its own cache of failed lookups, 0 for none
  std::string source;           // where the number comes from, for the report
};

// Where the programs and their builds live during one run.
struct ClientPaths {
  std::string programs_dir;  // the shipped programs, written out by write_client_programs()
  std::string build_dir;     // per-run build cache (class files, Go binaries)
  std::string cutover_binary;
};

// One invocation of a client program.
struct ClientInvocation {
  std::string url;
  double interval = 0.5;
  int count = 1;
  std::optional<double> connect_timeout;  // nullopt: the runtime's default
};

class ClientAdapter {
 public:
  virtual ~ClientAdapter() = default;
  virtual std::string id() const = 0;        // the --clients name, e.g. "java-ttl5"
  virtual std::string runtime() const = 0;   // e.g. "OpenJDK"
  virtual std::string setting() const = 0;   // e.g. "HttpURLConnection, networkaddress.cache.ttl=5"
  virtual std::string program() const = 0;   // the executable that must be in PATH
  virtual std::string package() const = 0;   // the Debian package that installs it
  virtual ClientCache cache() const { return {}; }
  // Whether it keeps an HTTP connection open between requests when the origin lets it.
  virtual bool reuses_connections() const { return false; }
  // Whether a kept connection is retired once its address leaves the name's answer (looked up
  // again when the TTL runs out), so that a kept-open old origin does not pin it (E11 keep).
  virtual bool retires_moved_connections() const { return false; }
  // Builds what the program needs into paths.build_dir (called once per run before any case).
  virtual base::Status prepare(const ClientPaths&) const { return {}; }
  // The runtime's version as its program reports it, empty when it cannot run.
  virtual std::string version(const ClientPaths& paths) const = 0;
  // Empty when the program can run; else why not, starting "not supported: ".
  virtual std::string unsupported(const ClientPaths& paths) const;
  virtual std::vector<std::string> command(const ClientPaths& paths, const ClientInvocation& run) const = 0;
  // Environment variables for the program (NAME=VALUE), besides the lab's own.
  virtual std::vector<std::string> environment(const ClientPaths&) const { return {}; }

 protected:
  // The common flags of every program: URL --interval S --count N [--connect-timeout S].
  static std::vector<std::string> common_flags(const ClientInvocation& run);
};

// One runtime, defined by its file as `ClientKind NAME_client()` (a file may define several).
struct ClientKind {
  std::string id;
  std::unique_ptr<ClientAdapter> (*make)();
};

// Every client id, in report order (the CUTOVER_LAB_CLIENTS table of registry.cpp).
std::vector<std::string> builtin_client_ids();
// The adapter for `id`, nullptr when unknown.
std::unique_ptr<ClientAdapter> make_client(const std::string& id);
// The ids CI runs (docs/lab.md): python, curl, curl-long, java, cutover.
std::vector<std::string> ci_client_ids();

// Writes the shipped client programs (embedded in the binary at build time, so an installed
// cutover needs no data directory) into `dir`. Returns the error of the first failed write.
base::Status write_client_programs(const std::string& dir);

}  // namespace cutover::lab

namespace cutover::lab {
// The first dotted version number in `text` ("openjdk version \"17.0.15\"" -> "17.0.15"), or
// the first line of `text` when it has none.
std::string client_version_in(const std::string& text);
}  // namespace cutover::lab
