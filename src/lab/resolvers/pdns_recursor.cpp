// PowerDNS Recursor 4 adapter: `pdns_recursor --config-dir=DIR` with its own recursor.conf.
// Its serve-stale window comes only in 30 s extensions, so other windows are not supported.
#include <fmt/format.h>

#include "lab/resolvers/resolver.h"

namespace cutover::lab {
namespace {

constexpr std::uint32_t kStaleExtension = 30;  // serve-stale-extensions counts units of 30 s

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
        "dnssec=off\nqname-minimization=no\nsecurity-poll-suffix=\ndont-query=\nthreads=1\n"
        "disable-syslog=yes\nloglevel=4\nallow-from=127.0.0.0/8\n",
        port, dir, dir);
    if (cache.ttl_floor) conf += fmt::format("minimum-ttl-override={}\n", *cache.ttl_floor);
    if (cache.ttl_cap) conf += fmt::format("max-cache-ttl={}\n", *cache.ttl_cap);
    if (cache.negative_cap) conf += fmt::format("max-negative-ttl={}\n", *cache.negative_cap);
    if (cache.stale_window) conf += fmt::format("serve-stale-extensions={}\n", *cache.stale_window / kStaleExtension);
    LaunchPlan plan;
    if (config.upstream.kind == Upstream::Kind::kStub) {
      conf += fmt::format("forward-zones={}={}:{}\n", config.upstream.zone, config.upstream.host, config.upstream.port);
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

 protected:
  std::vector<std::string> version_command() const override { return {"pdns_recursor", "--version"}; }
};

}  // namespace

ResolverKind pdns_recursor_resolver() { return {"pdns-recursor", true, without_options<PdnsRecursor>}; }

}  // namespace cutover::lab
