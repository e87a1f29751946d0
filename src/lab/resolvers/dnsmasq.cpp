// dnsmasq adapter: `dnsmasq -k -C dnsmasq.conf`, a forwarder with a cache. It cannot iterate from
// root hints, and --neg-ttl applies only to replies without a SOA, so it has no negative cap.
#include <fmt/format.h>

#include "lab/resolvers/resolver.h"

namespace cutover::lab {
namespace {

class Dnsmasq : public ResolverAdapter {
 public:
  std::string name() const override { return "dnsmasq"; }
  std::string program() const override { return "dnsmasq"; }
  std::string package() const override { return "dnsmasq-base"; }
  std::string unsupported(const ResolverConfig& config) const override {
    if (config.upstream.kind == Upstream::Kind::kRootHints) return "dnsmasq forwards only; it cannot start from root hints";
    if (config.cache.negative_cap) return "--neg-ttl applies only to negative replies without a SOA";
    return {};
  }

  LaunchPlan plan(const std::string& dir, std::uint16_t port, const ResolverConfig& config) const override {
    const CacheSettings& cache = config.cache;
    std::string zone = config.upstream.zone;
    if (!zone.empty() && zone.back() == '.') zone.pop_back();
    std::string conf = fmt::format(
        "port={}\nlisten-address=127.0.0.1\nbind-interfaces\nno-resolv\nno-hosts\nno-poll\n"
        "server=/{}/{}#{}\ncache-size=10000\nuser=root\npid-file=\nlog-facility=-\n",
        port, zone, config.upstream.host, config.upstream.port);
    if (cache.ttl_floor) conf += fmt::format("min-cache-ttl={}\n", *cache.ttl_floor);
    if (cache.ttl_cap) conf += fmt::format("max-cache-ttl={}\n", *cache.ttl_cap);
    if (cache.stale_window) conf += fmt::format("use-stale-cache={}\n", *cache.stale_window);
    // --resolver-option lines are dnsmasq.conf option lines (long option names without --).
    for (const auto& line : config.extra_lines) conf += line + "\n";
    LaunchPlan plan;
    plan.files.emplace_back("dnsmasq.conf", conf);
    plan.argv = {"dnsmasq", "-k", "-C", dir + "/dnsmasq.conf"};
    return plan;
  }

 protected:
  std::vector<std::string> version_command() const override { return {"dnsmasq", "--version"}; }
};

}  // namespace

ResolverKind dnsmasq_resolver() { return {"dnsmasq", true, without_options<Dnsmasq>}; }

}  // namespace cutover::lab
