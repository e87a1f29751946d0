// PoolAnswers: the immutable snapshot of what every per-query pool answers now, per pool and
// address family, with how each answer came about (healthy, fail-open, fallback, nodata) for
// /status, metrics and the all-down events. It carries the engine's own snapshot
// (auth::DynamicAnswers, built once with it), which is what the answer engine reads: the
// engine never sees a pool. Rebuilt and swapped whole on every health change, so the next
// query sees it. Read-only once built; thread-safe to read.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "auth/dynamic_answers.h"
#include "pool/pool_spec.h"

namespace cutover::pool {

// How a family's answer came about, for /status and the all-down events. kPanic: some but
// fewer endpoints than min-healthy are up, so every endpoint is answered (PoolSpec::MinHealthy).
enum class AnswerMode { kHealthy, kPanic, kFailOpen, kFallback, kNoData };
const char* mode_to_text(AnswerMode mode);
// True for the modes of a family with no endpoint up (when-all-down decided).
bool is_all_down(AnswerMode mode);

// One family's answer (the engine's part) and how it came about.
struct FamilyAnswer : auth::DynamicFamily {
  bool configured = false;  // the pool has endpoints of this family
  AnswerMode mode = AnswerMode::kHealthy;
  std::vector<std::string> addresses;  // what is answered (or drawn from), as text
  std::size_t up = 0;                  // endpoints of the family serving (up or unknown)
  std::size_t endpoints = 0;           // endpoints of the family configured
  std::uint64_t panics = 0;            // times the family entered panic since the pool was made
  // Steered pools: the region whose endpoints are answered; empty when the answer came from
  // the whole pool (no region of the order had one serving).
  std::string region;
};

// A steered pool's answer for the clients of one region (SteeringSpec).
struct RegionAnswer {
  std::string region;
  FamilyAnswer a;
  FamilyAnswer aaaa;
  FamilyAnswer cname;  // a pool of hostname endpoints: the CNAME to one of them

  const FamilyAnswer* family(dns::RRType type) const;
  std::array<const FamilyAnswer*, 3> families() const { return {&a, &aaaa, &cname}; }
};

using PoolCounters = auth::AnswerCounters;

struct PoolAnswer {
  std::string pool;
  dns::Name owner;
  std::uint32_t ttl = kDefaultPoolTtl;
  bool suspicion_ttl = false;
  // Every endpoint has a verdict (or an override): the answer no longer rests on `unknown`.
  bool settled = false;
  // Unsteered: every client's answer. Steered: the default region's.
  FamilyAnswer a;
  FamilyAnswer aaaa;
  // A pool of hostname endpoints (`target:`, docs/pools.md "Hostname endpoints") answers a
  // CNAME to one target instead of addresses.
  bool alias = false;
  FamilyAnswer cname;
  std::shared_ptr<PoolCounters> counters;
  // Steered pools: client prefix -> index into `regions`, and the answer of each region.
  std::shared_ptr<const base::NetworkTable> networks;
  std::vector<RegionAnswer> regions;
  std::size_t default_region = 0;
  std::uint16_t views = auth::kEveryView;  // PoolSpec::view_mask

  const FamilyAnswer* family(dns::RRType type) const;
  std::array<const FamilyAnswer*, 3> families() const { return {&a, &aaaa, &cname}; }
  // The TTL to send now: the pool's, capped by the suspicion deadline when enabled
  // (auth::DynamicAnswer::ttl_at, which the engine applies).
  std::uint32_t ttl_at(const FamilyAnswer& family, base::SteadyTime now) const;
  // What the engine answers for this pool.
  auth::DynamicAnswer dynamic() const;
};

using PoolRecords = auth::DynamicRecords;

class PoolAnswers {
 public:
  explicit PoolAnswers(std::vector<PoolAnswer> pools);

  // The answer of pool `id` (a name may have several pools, one per set of views).
  const PoolAnswer* find_pool(const std::string& id) const;
  const PoolAnswer* find(const dns::Name& owner) const;
  bool empty() const { return pools_.empty(); }
  const std::vector<PoolAnswer>& pools() const { return pools_; }
  // The engine's snapshot of the same answers (never null).
  const std::shared_ptr<const auth::DynamicAnswers>& dynamic() const { return dynamic_; }

 private:
  std::vector<PoolAnswer> pools_;  // sorted by owner
  std::shared_ptr<const auth::DynamicAnswers> dynamic_;
};

// The records of `type` to answer now, as the engine selects them (weighted draws use
// auth::draw_generator()); valid while `pool` lives.
[[nodiscard]] base::Result<PoolRecords> select_records(const PoolAnswer& pool, dns::RRType type, base::SteadyTime now);

using auth::weighted_draw;

}  // namespace cutover::pool
