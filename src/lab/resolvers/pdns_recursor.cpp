// PowerDNS Recursor 4 adapter: `pdns_recursor --config-dir=DIR` with its own recursor.conf.
// Its serve-stale window comes only in 30 s extensions, so other windows are not supported.
// introspect() asks `rec_control --socket-dir=DIR` for dump-cache and dump-nsspeeds
// (rec_control(1)); the control socket is in the instance directory (socket-dir), or in a
// short directory under /tmp named after it when the socket's path would not fit in sun_path.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <string_view>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "lab/process.h"
#include "lab/resolvers/cache_dumps.h"
#include "lab/resolvers/resolver.h"

namespace cutover::lab {
namespace {

constexpr std::uint32_t kStaleExtension = 30;  // serve-stale-extensions counts units of 30 s

// Where the instance in `dir` keeps its control socket.
std::string socket_dir(const std::string& dir) {
  if (dir.size() + std::string_view("/pdns_recursor.controlsocket").size() < kMaxControlSocketPath) return dir;
  std::string short_dir = fmt::format("/tmp/cutover-rec-{:016x}", std::hash<std::string>{}(dir));
  std::error_code error;
  std::filesystem::create_directories(short_dir, error);
  return short_dir;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class PdnsRecursor : public ResolverAdapter {
 public:
  std::string name() const override { return "pdns-recursor"; }
  std::string program() const override { return "pdns_recursor"; }
  std::string package() const override { return "pdns-recursor"; }
  std::string unsupported(const ResolverConfig& config) const override {
    if (config.cache.stale_window && *config.cache.stale_window % kStaleExtension != 0) {
      return "serve-stale-extensions sets the window in 30 s steps only";
    }
    return {};
  }

  LaunchPlan plan(const std::string& dir, std::uint16_t port, const ResolverConfig& config) const override {
    const CacheSettings& cache = config.cache;
    std::string conf = fmt::format(
        "local-address=127.0.0.1\nlocal-port={}\nconfig-dir={}\nsocket-dir={}\ndaemon=no\nwrite-pid=no\n"
        "dnssec={}\nqname-minimization=no\nsecurity-poll-suffix=\ndont-query=\nthreads=1\n"
        "disable-syslog=yes\nloglevel=4\nallow-from=127.0.0.0/8\n",
        port, dir, socket_dir(dir), config.trust_anchor.empty() ? "off" : "validate");
    LaunchPlan plan;
    if (!config.trust_anchor.empty()) {
      // E14: the lab root's DS as the only trust anchor, replacing the built-in root ones
      // (Lua configuration: clearTA, addTA).
      conf += fmt::format("lua-config-file={}/recursor.lua\n", dir);
      plan.files.emplace_back("recursor.lua", fmt::format("clearTA('.')\naddTA('.', \"{}\")\n", config.trust_anchor));
    }
    if (cache.ttl_floor) conf += fmt::format("minimum-ttl-override={}\n", *cache.ttl_floor);
    if (cache.ttl_cap) conf += fmt::format("max-cache-ttl={}\n", *cache.ttl_cap);
    if (cache.negative_cap) conf += fmt::format("max-negative-ttl={}\n", *cache.negative_cap);
    if (cache.stale_window) conf += fmt::format("serve-stale-extensions={}\n", *cache.stale_window / kStaleExtension);
    if (config.upstream.kind == Upstream::Kind::kStub) {
      conf += fmt::format("forward-zones={}={}:{}\n", config.upstream.zone, config.upstream.host, config.upstream.port);
      // The recursor primes the root even when it only forwards; without hints of its own it
      // would ask the real root servers (seen in its dump-nsspeeds). Its hints point at
      // 127.0.0.1:53 instead, where priming fails at once and nothing leaves the host.
      conf += fmt::format("hint-file={}/root.hints\n", dir);
      plan.files.emplace_back("root.hints", root_hints_file({Upstream::Kind::kRootHints, "", "127.0.0.1", 53}));
    } else {
      conf += fmt::format("hint-file={}/root.hints\n", dir);
      plan.files.emplace_back("root.hints", root_hints_file(config.upstream));
    }
    // --resolver-option lines are recursor.conf `name=value` lines, after the lab's own.
    for (const auto& line : config.extra_lines) conf += line + "\n";
    plan.files.emplace_back("recursor.conf", conf);
    plan.argv = {"pdns_recursor", "--config-dir=" + dir};
    return plan;
  }

  nlohmann::json introspect(const std::string& dir, const std::vector<std::string>& names) const override {
    // A file per call: cases sharing an instance may ask at the same time.
    static std::atomic<int> calls{0};
    std::string stem = fmt::format("{}/introspect-{}", dir, calls.fetch_add(1));
    auto ask = [&](const char* what, const std::string& file) {
      return run_capture({"rec_control", "--socket-dir=" + socket_dir(dir), what, file});
    };
    CommandOutput cache = ask("dump-cache", stem + ".cache");
    std::string dump = read_text(stem + ".cache");
    ::unlink((stem + ".cache").c_str());
    if (cache.exit_code != 0 || dump.empty()) {
      return {{"available", false}, {"reason", "rec_control dump-cache: " + cache.text.substr(0, cache.text.find('\n'))}};
    }
    nlohmann::json state = parse_pdns_cache_dump(dump, names);
    CommandOutput speeds = ask("dump-nsspeeds", stem + ".nsspeeds");
    state["infra"] = speeds.exit_code == 0 ? parse_pdns_nsspeeds(read_text(stem + ".nsspeeds")) : nlohmann::json::array();
    ::unlink((stem + ".nsspeeds").c_str());
    state["available"] = true;
    state["source"] = "rec_control dump-cache, dump-nsspeeds";
    return state;
  }

 protected:
  std::vector<std::string> version_command() const override { return {"pdns_recursor", "--version"}; }
};

}  // namespace

ResolverKind pdns_recursor_resolver() { return {"pdns-recursor", true, without_options<PdnsRecursor>}; }

}  // namespace cutover::lab
