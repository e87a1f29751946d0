// Unbound adapter: `unbound -d -c unbound.conf`, iterator only (the validator too for E14's trust anchor), stub zone to the
// lab authority or root hints. Foreground-as-root settings per docs/lab.md.
#include <fmt/format.h>

#include "lab/process.h"
#include "lab/resolvers/resolver.h"
#include "lab/resolvers/unbound_control.h"

namespace cutover::lab {
namespace {

class Unbound : public ResolverAdapter {
 public:
  std::string name() const override { return "unbound"; }
  std::string program() const override { return "unbound"; }
  std::string package() const override { return "unbound"; }
  std::string unsupported(const ResolverConfig&) const override { return {}; }

  LaunchPlan plan(const std::string& dir, std::uint16_t port, const ResolverConfig& config) const override {
    const CacheSettings& cache = config.cache;
    std::string conf = fmt::format(
        "server:\n"
        "  interface: 127.0.0.1\n  port: {}\n  do-ip6: no\n  do-not-query-localhost: no\n"
        "  username: \"\"\n  chroot: \"\"\n  directory: \"{}\"\n  pidfile: \"{}/unbound.pid\"\n"
        "  use-syslog: no\n  logfile: \"\"\n  verbosity: 1\n  num-threads: 1\n"
        "  module-config: \"{}\"\n  qname-minimisation: no\n  prefetch: no\n"
        "  access-control: 127.0.0.0/8 allow\n",
        port, dir, dir, config.trust_anchor.empty() ? "iterator" : "validator iterator");
    // E14: the lab root's DS as the only trust anchor, validation failures in the log.
    if (!config.trust_anchor.empty()) conf += fmt::format("  trust-anchor: \". DS {}\"\n  val-log-level: 2\n", config.trust_anchor);
    if (cache.ttl_floor) conf += fmt::format("  cache-min-ttl: {}\n", *cache.ttl_floor);
    if (cache.ttl_cap) conf += fmt::format("  cache-max-ttl: {}\n", *cache.ttl_cap);
    if (cache.negative_cap) conf += fmt::format("  cache-max-negative-ttl: {}\n", *cache.negative_cap);
    if (cache.stale_window) conf += fmt::format("  serve-expired: yes\n  serve-expired-ttl: {}\n", *cache.stale_window);
    // --resolver-option lines are `server:` lines (unbound.conf(5)), after the lab's own.
    for (const auto& line : config.extra_lines) conf += "  " + line + "\n";
    LaunchPlan plan;
    if (config.upstream.kind == Upstream::Kind::kRootHints) {
      conf += fmt::format("  root-hints: \"{}/root.hints\"\n", dir);
      plan.files.emplace_back("root.hints", root_hints_file(config.upstream));
    } else {
      conf += fmt::format("stub-zone:\n  name: \"{}\"\n  stub-addr: {}@{}\n", config.upstream.zone,
                          config.upstream.host, config.upstream.port);
    }
    // A control channel on a local socket (no TLS for a socket path, unbound.conf(5)) for
    // introspect(); a socket path longer than sun_path allows would stop Unbound, so a very
    // deep directory goes without.
    if (control_socket(dir).size() < kMaxControlSocketPath) {
      conf += fmt::format("remote-control:\n  control-enable: yes\n  control-interface: \"{}\"\n", control_socket(dir));
    }
    plan.files.emplace_back("unbound.conf", conf);
    plan.argv = {"unbound", "-d", "-c", dir + "/unbound.conf"};
    return plan;
  }

  nlohmann::json introspect(const std::string& dir, const std::vector<std::string>& names) const override {
    if (control_socket(dir).size() >= kMaxControlSocketPath) {
      return {{"available", false}, {"reason", "the control socket path would be too long: " + control_socket(dir)}};
    }
    std::string conf = dir + "/unbound.conf";
    CommandOutput cache = run_capture({"unbound-control", "-c", conf, "dump_cache"});
    if (cache.exit_code != 0) {
      return {{"available", false}, {"reason", "unbound-control dump_cache: " + cache.text.substr(0, cache.text.find('\n'))}};
    }
    CommandOutput infra = run_capture({"unbound-control", "-c", conf, "dump_infra"});
    nlohmann::json state = parse_unbound_cache_dump(cache.text, names);
    state["available"] = true;
    state["source"] = "unbound-control dump_cache, dump_infra";
    state["infra"] = infra.exit_code == 0 ? parse_unbound_infra(infra.text) : nlohmann::json::array();
    return state;
  }

 protected:
  std::vector<std::string> version_command() const override { return {"unbound", "-V"}; }

 private:
  static std::string control_socket(const std::string& dir) { return dir + "/unbound.ctl"; }
};

}  // namespace

ResolverKind unbound_resolver() { return {"unbound", true, without_options<Unbound>}; }

}  // namespace cutover::lab
