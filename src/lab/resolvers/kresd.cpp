// Knot Resolver 5 adapter: `kresd -n -c kresd.conf DIR` with a Lua config. It has no separate
// negative-TTL cap, and its serve_stale window is set by replacing the module's callback.
#include <fmt/format.h>

#include "lab/resolvers/resolver.h"

namespace cutover::lab {
namespace {

class Kresd : public ResolverAdapter {
 public:
  std::string name() const override { return "kresd"; }
  std::string program() const override { return "kresd"; }
  std::string package() const override { return "knot-resolver"; }
  std::string unsupported(const ResolverConfig& config) const override {
    if (config.cache.negative_cap) return "Knot Resolver 5 has no cap for negative answers alone";
    return {};
  }

  LaunchPlan plan(const std::string& dir, std::uint16_t port, const ResolverConfig& config) const override {
    const CacheSettings& cache = config.cache;
    std::string conf = fmt::format(
        "net.ipv6 = false\n"
        "net.listen('127.0.0.1', {}, {{ kind = 'dns' }})\n"
        "pcall(function() trust_anchors.remove('.') end)\n"
        "option('NO_MINIMIZE', true)\n"
        "cache.open(32 * MB, 'lmdb://{}/cache')\n"
        "policy.add(policy.all(policy.FLAGS({{'ALLOW_LOCAL'}})))\n",
        port, dir);
    if (cache.ttl_floor) conf += fmt::format("cache.min_ttl({})\n", *cache.ttl_floor);
    if (cache.ttl_cap) conf += fmt::format("cache.max_ttl({})\n", *cache.ttl_cap);
    if (cache.stale_window) {
      // The module's own callback allows one day of staleness; this one allows the window.
      conf += fmt::format(
          "local ffi = require('ffi')\nmodules.load('serve_stale < cache')\n"
          "serve_stale.callback = ffi.cast('kr_stale_cb', function(ttl) if ttl + {} > 0 then return 1 end "
          "return -1 end)\n",
          *cache.stale_window);
    }
    if (config.upstream.kind == Upstream::Kind::kStub) {
      conf += fmt::format("policy.add(policy.suffix(policy.STUB({{'{}@{}'}}), {{todname('{}')}}))\n",
                          config.upstream.host, config.upstream.port, config.upstream.zone);
    } else {
      conf += fmt::format("modules.load('hints > iterate')\nhints.root({{['{}'] = '{}'}})\n", config.upstream.root_name,
                          config.upstream.host);
    }
    // --resolver-option lines are Lua lines of the config, run after the lab's own.
    for (const auto& line : config.extra_lines) conf += line + "\n";
    LaunchPlan plan;
    plan.files.emplace_back("kresd.conf", conf);
    plan.argv = {"kresd", "-n", "-c", dir + "/kresd.conf", dir};
    return plan;
  }

 protected:
  std::vector<std::string> version_command() const override { return {"kresd", "--version"}; }
};

}  // namespace

ResolverKind kresd_resolver() { return {"kresd", true, without_options<Kresd>}; }

}  // namespace cutover::lab
