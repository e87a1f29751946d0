// BIND 9 adapter: `named -g -4 -n 1 -c named.conf`. 9.18 takes no port in static-stub
// server-addresses, so the global `port` option sends every outgoing query to the authority's port.
#include <fmt/format.h>

#include "lab/resolvers/resolver.h"

namespace cutover::lab {
namespace {

class Bind : public ResolverAdapter {
 public:
  std::string name() const override { return "bind"; }
  std::string program() const override { return "named"; }
  std::string package() const override { return "bind9"; }
  std::string unsupported(const ResolverConfig&) const override { return {}; }

  LaunchPlan plan(const std::string& dir, std::uint16_t port, const ResolverConfig& config) const override {
    const CacheSettings& cache = config.cache;
    bool stub = config.upstream.kind == Upstream::Kind::kStub;
    std::string options = fmt::format(
        "  directory \"{0}\";\n  pid-file \"{0}/named.pid\";\n  session-keyfile \"{0}/session.key\";\n"
        "  managed-keys-directory \"{0}\";\n  listen-on port {1} {{ 127.0.0.1; }};\n  listen-on-v6 {{ none; }};\n"
        "  recursion yes;\n  allow-query {{ any; }};\n  allow-recursion {{ 127.0.0.0/8; }};\n"
        "  dnssec-validation no;\n  qname-minimization off;\n  prefetch 0;\n",
        dir, port);
    if (stub) options += fmt::format("  port {};\n", config.upstream.port);
    if (cache.ttl_floor) options += fmt::format("  min-cache-ttl {};\n", *cache.ttl_floor);
    if (cache.ttl_cap) options += fmt::format("  max-cache-ttl {};\n", *cache.ttl_cap);
    if (cache.negative_cap) options += fmt::format("  max-ncache-ttl {};\n", *cache.negative_cap);
    if (cache.stale_window) {
      options += fmt::format("  stale-answer-enable yes;\n  stale-cache-enable yes;\n  max-stale-ttl {};\n",
                             *cache.stale_window);
    }
    // --resolver-option lines are `options { }` statements (named.conf(5)), after the lab's own.
    for (const auto& line : config.extra_lines) options += "  " + line + "\n";
    std::string conf = "options {\n" + options + "};\ncontrols { };\n";
    LaunchPlan plan;
    if (stub) {
      conf += fmt::format("zone \"{}\" {{ type static-stub; server-addresses {{ {}; }}; }};\n", config.upstream.zone,
                          config.upstream.host);
    } else {
      conf += fmt::format("zone \".\" {{ type hint; file \"{}/root.hints\"; }};\n", dir);
      plan.files.emplace_back("root.hints", root_hints_file(config.upstream));
    }
    plan.files.emplace_back("named.conf", conf);
    plan.argv = {"named", "-g", "-4", "-n", "1", "-c", dir + "/named.conf"};
    return plan;
  }

 protected:
  std::vector<std::string> version_command() const override { return {"named", "-v"}; }
};

}  // namespace

ResolverKind bind_resolver() { return {"bind", true, without_options<Bind>}; }

}  // namespace cutover::lab
