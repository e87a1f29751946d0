// PoolAnswers: the immutable snapshot the answer engine reads for names owned by pools:
// per pool and address family the current answer, pre-built as an RRset (or, for weighted
// pools, the weighted draw) and pre-encoded for the answer fast path. Rebuilt and swapped
// whole on every health change, so the next query sees it. Reading and select_records() are thread-safe and never throw.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "dns/name.h"
#include "dns/rdata.h"
#include "dns/types.h"
#include "pool/pool_spec.h"
#include "zone/name_index.h"
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

// One family's answer records pre-encoded as they follow the question in a response (owner =
// compression pointer to the question name, class IN, the pool's TTL), so the answer fast
// path copies them instead of planning and encoding. Every record has the same size (A or
// AAAA). A fixed answer holds its members twice over but the last, so each rotation of the
// cyclic order is one contiguous slice; a weighted draw holds its candidates once.
struct EncodedFamily {
  std::vector<std::uint8_t> records;
  std::uint16_t record_size = 0;  // 0: not encodable, the general path answers
  std::uint16_t count = 0;        // members (fixed) or candidates (draw)
};

// A pool's encoded families.
struct EncodedPool {
  EncodedFamily a;
  EncodedFamily aaaa;

  const EncodedFamily* family(dns::RRType type) const;
};

// Larger answers (and draws) are left to the general path; the fast path's draw scratch fits this.
constexpr std::size_t kMaxEncodedMembers = 64;

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
  // The position in pools() of the pool owning a lowercase wire name whose hash is
  // zone::hash_lower_wire(lower_wire), or kNoPool; no allocation.
  static constexpr std::size_t kNoPool = static_cast<std::size_t>(-1);
  std::size_t find_lower(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const;
  const EncodedPool& encoded(std::size_t position) const { return encoded_[position]; }
  bool empty() const { return pools_.empty(); }
  const std::vector<PoolAnswer>& pools() const { return pools_; }

 private:
  std::vector<PoolAnswer> pools_;  // sorted by owner
  std::vector<std::vector<std::uint8_t>> lower_wires_;
  std::vector<EncodedPool> encoded_;  // parallel to pools_
  zone::NameIndex index_;             // lowercase owner -> position in pools_
};

// The per-thread generator of weighted draws (select_records and the answer fast path).
std::mt19937_64& draw_generator();

// The records of `type` to answer now. Weighted draws use draw_generator().
[[nodiscard]] base::Result<PoolRecords> select_records(const PoolAnswer& pool, dns::RRType type, base::SteadyTime now);

// Draws `count` distinct indexes with probability proportional to `weights` (all > 0),
// using `random` as a source of uniform 64-bit values.
template <typename Random>
std::vector<std::size_t> weighted_draw(const std::vector<std::uint32_t>& weights, std::size_t count, Random& random);

}  // namespace cutover::pool

#include "pool/weighted_draw.inl"
