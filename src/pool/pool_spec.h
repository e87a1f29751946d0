// PoolSpec: one health-checked pool as configured: the DNS name it owns, its endpoints,
// the answer shape, the TTL and what to answer when nothing is healthy. Plain value type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dns/name.h"
#include "health/check_settings.h"
#include "health/combine.h"
#include "health/quorum.h"
#include "pool/steering/steering.h"

namespace cutover::pool {

// Route 53 calls 60 or 120 s common for failover records, and a shorter TTL buys nothing
// until the check has fired (docs/pools.md, "Why 60 s as the default TTL"): 60 s keeps the cache term K no larger
// than the default detection term D_max = 32 s by much, so neither dominates the cutover.
constexpr std::uint32_t kDefaultPoolTtl = 60;

enum class AllDownPolicy {
  kFailOpen,  // answer every configured endpoint (Route 53, Traffic Manager)
  kFallback,  // answer a configured static set
  kNoData,    // NOERROR, empty answer, the zone's SOA (resolvers cache the emptiness)
};

const char* all_down_to_text(AllDownPolicy policy);

// `min-healthy: N` or `P%`: the panic threshold (gdnsd's up_thresh, Traffic Manager's
// MinChildEndpoints). While some but fewer endpoints of a family than this are up, the
// pool answers every endpoint of the family instead of piling all traffic onto the few
// survivors; with none up, when-all-down decides. 0 (the default) turns it off.
struct MinHealthy {
  std::size_t value = 0;
  bool percent = false;  // value is a percentage of the family's endpoints

  bool enabled() const { return value != 0; }
  // The number of up endpoints below which a family of `endpoints` panics: N capped at
  // `endpoints` (so a family smaller than N is never in panic when all are up), or
  // ceil(P% of endpoints).
  std::size_t threshold(std::size_t endpoints) const {
    if (percent) return (value * endpoints + 99) / 100;
    return value < endpoints ? value : endpoints;
  }
  std::string to_text() const;  // "2", "50%", "off"
};

// How a pool's answer reaches clients.
enum class ServeMode {
  kPerQuery,     // the engine answers each query from the latest health snapshot
  kMaterialize,  // the answer is written into the zone as ordinary records (secondaries serve it)
};

struct EndpointSpec {
  // Numeric IPv4 (answered as A) or IPv6 (AAAA); for a hostname endpoint, its target's name
  // as text ("lb-eu.example.net."), which names the endpoint in health, status and the API.
  std::string address;
  std::uint16_t port = 0;  // 0: the probe type's default
  int priority = 1;        // failover: lower is preferred
  std::uint32_t weight = 1;
  health::CheckSettings check;  // the pool's check with this endpoint's overrides applied
  // `checks:`: every check of the endpoint (checks[0] is also `check`), each inheriting the
  // pool's check; empty: `check` alone. The health layer combines them per vantage.
  std::vector<health::CheckSettings> checks;
  health::Combine combine;  // `combine: all | any | at-least-K`
  std::string region;       // steered pools: the region it serves (SteeringSpec)
  // `target: NAME`: a hostname endpoint, answered as a CNAME to NAME and probed at the
  // addresses NAME resolves to (or its check-address); docs/pools.md "Hostname endpoints".
  std::optional<dns::Name> target;
};

// Every check of an endpoint: `checks`, or `check` alone.
inline std::vector<health::CheckSettings> all_checks(const EndpointSpec& endpoint) {
  return endpoint.checks.empty() ? std::vector<health::CheckSettings>{endpoint.check} : endpoint.checks;
}

struct PoolSpec {
  std::string name;  // the pool's id in the config and the API
  dns::Name owner;   // the DNS name it answers for
  std::string shape = "failover";
  // all-healthy: at most this many addresses (0: all); weighted: addresses per answer.
  std::size_t max_answers = 0;
  std::uint32_t ttl = kDefaultPoolTtl;
  AllDownPolicy when_all_down = AllDownPolicy::kFailOpen;
  std::vector<std::string> fallback;  // addresses answered under kFallback
  MinHealthy min_healthy;
  // `checkers:`: how the vantages of a cluster combine (docs/cluster.md); the default is
  // the one local checker.
  health::QuorumRule checkers;
  // While an answered endpoint is suspected (failed, not yet down), cap the TTL at the time
  // until it could be declared down.
  bool suspicion_ttl = false;
  bool wait_for_first_check = false;
  ServeMode serve = ServeMode::kPerQuery;
  health::CheckSettings check;
  std::vector<EndpointSpec> endpoints;
  // `networks:`, `regions:`, `default-region:`: answers per client network (docs/steering.md).
  SteeringSpec steering;
  // `views:`: the views it is answered in ("default" for the top-level zones; docs/steering.md,
  // "Views"), empty for all of them; elsewhere the name is answered from zone data. `view_mask`
  // is the same as auth::DynamicAnswer::views, from the config's order of views.
  std::vector<std::string> views;
  std::uint16_t view_mask = 0xFFFF;

  // Its endpoints are hostnames (`target:`), so it answers a CNAME; a pool's endpoints are all
  // hostnames or all addresses (the config checks it).
  bool alias() const { return !endpoints.empty() && endpoints.front().target.has_value(); }
};

// Two pools with one name are allowed when both are limited to views and no view is in both:
// each query meets one of them at most (docs/steering.md, "Views").
inline bool answered_apart(const PoolSpec& a, const PoolSpec& b) {
  return !a.views.empty() && !b.views.empty() && (a.view_mask & b.view_mask) == 0;
}

}  // namespace cutover::pool
