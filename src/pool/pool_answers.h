// PoolAnswers: the immutable snapshot the answer engine reads for names owned by pools:
// per pool and address family the current answer, pre-built as an RRset (or, for weighted
// pools, the weighted draw). Rebuilt and swapped whole on every health change, so the next
// query sees it. Reading and select_records() are thread-safe and never throw.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "dns/name.h"
#include "dns/rdata.h"
#include "dns/types.h"
#include "pool/pool_spec.h"
#include "zone/zone.h"

namespace cutover::pool {

// How a family's answer came about, for /status and the all-down events.
enum class AnswerMode { kHealthy, kFailOpen, kFallback, kNoData };
const char* mode_to_text(AnswerMode mode);

struct FamilyAnswer {
  dns::RRType type = dns::RRType::A;
  bool configured = false;  // the pool has endpoints of this family
  AnswerMode mode = AnswerMode::kHealthy;
  zone::RRset fixed;                   // the whole answer when per_query == 0
  std::vector<dns::Rdata> draw;        // weighted: candidates...
  std::vector<std::uint32_t> weights;  // ...and their weights
  std::size_t per_query = 0;
  std::vector<std::string> addresses;  // what is answered (or drawn from), as text
  std::optional<base::SteadyTime> suspicion_deadline;  // earliest among answered endpoints
};

// Queries answered per pool; lives across snapshots.
struct PoolCounters {
  std::atomic<std::uint64_t> queries{0};
};

struct PoolAnswer {
  std::string pool;
  dns::Name owner;
  std::uint32_t ttl = kDefaultPoolTtl;
  bool suspicion_ttl = false;
  // Every endpoint has a verdict (or an override): the answer no longer rests on `unknown`.
  bool settled = false;
  FamilyAnswer a;
  FamilyAnswer aaaa;
  std::shared_ptr<PoolCounters> counters;

  const FamilyAnswer* family(dns::RRType type) const;
  // The TTL to send now: the pool's, capped by the suspicion deadline when enabled.
  std::uint32_t ttl_at(const FamilyAnswer& family, base::SteadyTime now) const;
};

// The records of one family for one query: either the pre-built RRset or a fresh draw.
struct PoolRecords {
  const zone::RRset* fixed = nullptr;
  std::vector<dns::Rdata> picked;
  std::uint32_t ttl = 0;
  bool empty() const { return (fixed == nullptr || fixed->rdatas.empty()) && picked.empty(); }
};

class PoolAnswers {
 public:
  explicit PoolAnswers(std::vector<PoolAnswer> pools);

  const PoolAnswer* find(const dns::Name& owner) const;
  // The same for an uncompressed wire name in any letter case; no allocation.
  bool owns_wire(std::span<const std::uint8_t> wire) const;
  bool empty() const { return pools_.empty(); }
  const std::vector<PoolAnswer>& pools() const { return pools_; }

 private:
  std::vector<PoolAnswer> pools_;  // sorted by owner
  std::vector<std::vector<std::uint8_t>> lower_wires_;
};

// The records of `type` to answer now. Weighted draws use a per-thread generator.
[[nodiscard]] base::Result<PoolRecords> select_records(const PoolAnswer& pool, dns::RRType type, base::SteadyTime now);

// Draws `count` distinct indexes with probability proportional to `weights` (all > 0),
// using `random` as a source of uniform 64-bit values.
template <typename Random>
std::vector<std::size_t> weighted_draw(const std::vector<std::uint32_t>& weights, std::size_t count, Random& random);

}  // namespace cutover::pool

#include "pool/weighted_draw.inl"
