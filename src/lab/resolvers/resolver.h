// ResolverAdapter: what the lab needs to know to run one resolver product: its config for a
// set of cache settings, its command line, its version, and which settings it cannot express
// (reported as "not supported", never skipped silently). One file per resolver, which defines
// its ResolverKind and parses its own options; adding a resolver is one new file and one line
// in registry.cpp. Adapters are stateless and thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace cutover::lab {

// The cache knobs an experiment asks for; unset means the product's default.
struct CacheSettings {
  std::optional<std::uint32_t> ttl_floor;
  std::optional<std::uint32_t> ttl_cap;
  std::optional<std::uint32_t> negative_cap;
  std::optional<std::uint32_t> stale_window;  // serve-stale on, with this window in seconds
  // "default", or the knobs joined, e.g. "floor15", "cap8", "neg3", "stale15".
  std::string label() const;
  bool is_default() const { return label() == "default"; }
};

// Where the resolver sends queries: the lab zone to one lab authority (stub/forward), or
// everything from root hints (a lab root server on port 53 of a loopback address).
struct Upstream {
  enum class Kind { kStub, kRootHints };
  Kind kind = Kind::kStub;
  std::string zone;       // stub: the lab zone, e.g. "cutover-lab."
  std::string host;       // stub: authority address; root hints: the root server's address
  std::uint16_t port = 53;
  std::string root_name = "a.root-servers.lab.";
};

struct ResolverConfig {
  CacheSettings cache;
  Upstream upstream;
  // --resolver-option lines, each in the product's own config syntax (docs/lab.md); the
  // adapter places them where its syntax wants them, after the lab's own settings.
  std::vector<std::string> extra_lines = {};
  // The root's DS rdata ("TAG ALG DIGEST-TYPE HEX") of the lab's signed three-tier world
  // (E14): the resolver validates DNSSEC with it as its only trust anchor. Empty: validation
  // stays off, as every other experiment runs.
  std::string trust_anchor = "";
};

// Files to write into the instance directory and the command that runs the resolver in the
// foreground on 127.0.0.1:`port`.
struct LaunchPlan {
  std::vector<std::pair<std::string, std::string>> files;  // name inside the directory, content
  std::vector<std::string> argv;
};

class ResolverAdapter {
 public:
  virtual ~ResolverAdapter() = default;
  virtual std::string name() const = 0;
  // The executable (checked in PATH before anything runs).
  virtual std::string program() const = 0;
  // The product version as the program reports it (empty when it cannot be run).
  virtual std::string version() const;
  // The Debian package that installs program() ("bind9" for named), empty when none does.
  virtual std::string package() const { return {}; }
  // That package's full version as dpkg records it (e.g. "1.17.1-2+deb12u4": Debian backports
  // behaviour-changing fixes into stable packages), or "not available: WHY".
  std::string package_version() const;
  // Empty when the product can express `config`, else the reason it cannot.
  virtual std::string unsupported(const ResolverConfig& config) const = 0;
  virtual LaunchPlan plan(const std::string& dir, std::uint16_t port, const ResolverConfig& config) const = 0;
  // What the running instance started from plan(`dir`, ...) holds for `names` (and the names
  // below them) and for the lab's servers, read through the resolver's own control interface
  // after a case: {"available": true, "source": HOW, ...the adapter's fields}, or
  // {"available": false, "reason": WHY} when it has none or it refuses (docs/lab.md).
  virtual nlohmann::json introspect(const std::string& dir, const std::vector<std::string>& names) const;
  // An external resolver is not started by the lab: it already listens at address().
  virtual bool external() const { return false; }
  virtual std::string external_host() const { return {}; }
  virtual std::uint16_t external_port() const { return 0; }

 protected:
  // The first dotted version number in `text` (e.g. "BIND 9.18.49-1" -> "9.18.49").
  static std::string first_version(const std::string& text);
  virtual std::vector<std::string> version_command() const = 0;
};

// One kind of adapter, defined by its file as `ResolverKind FILE_resolver()`. A --resolvers
// entry is NAME or NAME:OPTIONS; `make` gets the OPTIONS (nullopt without a colon) and returns
// nullptr when it cannot accept them.
struct ResolverKind {
  std::string name;  // e.g. "unbound", "pdns-recursor", "external"
  bool in_all;       // whether `--resolvers all` runs it
  std::function<std::unique_ptr<ResolverAdapter>(const std::optional<std::string>& options)> make;
  std::string usage = "";  // how --resolvers names it when it takes options, e.g. "external:ADDR:PORT"
};

// The `make` of an adapter that takes no options: it accepts NAME alone.
template <typename Adapter>
std::unique_ptr<ResolverAdapter> without_options(const std::optional<std::string>& options) {
  if (options) return nullptr;
  return std::make_unique<Adapter>();
}

// The adapter for a --resolvers entry: unbound, bind, kresd, pdns-recursor, dnsmasq or
// external:ADDR:PORT. nullptr for an unknown name.
std::unique_ptr<ResolverAdapter> make_resolver(const std::string& spec);
// The names `all` stands for.
std::vector<std::string> builtin_resolver_names();
// Every adapter as --resolvers names it ("unbound,bind,...,external:ADDR:PORT"), for help and errors.
std::string resolver_usage();

// A --resolver-option value, ADAPTER:LINE: the adapter's name (one `--resolvers all` runs)
// and the text after the first colon, a line in that product's own config syntax. nullopt
// when the adapter is unknown or external, or the line is empty.
std::optional<std::pair<std::string, std::string>> parse_resolver_option(const std::string& text);

// `dpkg-query -W -f='${Version}' PACKAGE`, or "not available: " and dpkg-query's own words.
std::string debian_package_version(const std::string& package);

// The longest control-socket path the lab gives a resolver: sockaddr_un::sun_path is 108 bytes
// on Linux, and a resolver with a longer one refuses to start (Unbound, the PowerDNS Recursor).
constexpr std::size_t kMaxControlSocketPath = 100;

// Root hints in master-file form (named.root), used by unbound, BIND and the PowerDNS Recursor.
std::string root_hints_file(const Upstream& upstream);

}  // namespace cutover::lab
