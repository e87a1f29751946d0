// PoolSpec: one health-checked pool as configured: the DNS name it owns, its endpoints,
// the answer shape, the TTL and what to answer when nothing is healthy. Plain value type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dns/name.h"
#include "health/check_settings.h"

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

// How a pool's answer reaches clients.
enum class ServeMode {
  kPerQuery,     // the engine answers each query from the latest health snapshot
  kMaterialize,  // the answer is written into the zone as ordinary records (secondaries serve it)
};

struct EndpointSpec {
  std::string address;     // numeric IPv4 (answered as A) or IPv6 (AAAA)
  std::uint16_t port = 0;  // 0: the probe type's default
  int priority = 1;        // failover: lower is preferred
  std::uint32_t weight = 1;
  health::CheckSettings check;  // the pool's check with this endpoint's overrides applied
};

struct PoolSpec {
  std::string name;  // the pool's id in the config and the API
  dns::Name owner;   // the DNS name it answers for
  std::string shape = "failover";
  // all-healthy: at most this many addresses (0: all); weighted: addresses per answer.
  std::size_t max_answers = 0;
  std::uint32_t ttl = kDefaultPoolTtl;
  AllDownPolicy when_all_down = AllDownPolicy::kFailOpen;
  std::vector<std::string> fallback;  // addresses answered under kFallback
  // While an answered endpoint is suspected (failed, not yet down), cap the TTL at the time
  // until it could be declared down.
  bool suspicion_ttl = false;
  bool wait_for_first_check = false;
  ServeMode serve = ServeMode::kPerQuery;
  health::CheckSettings check;
  std::vector<EndpointSpec> endpoints;
};

}  // namespace cutover::pool
