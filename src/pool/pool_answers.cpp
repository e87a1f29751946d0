// PoolAnswers lookup and per-query record selection.
#include "pool/pool_answers.h"

#include <algorithm>
#include <random>

namespace cutover::pool {

const char* mode_to_text(AnswerMode mode) {
  switch (mode) {
    case AnswerMode::kHealthy: return "healthy";
    case AnswerMode::kFailOpen: return "fail-open";
    case AnswerMode::kFallback: return "fallback";
    case AnswerMode::kNoData: return "nodata";
  }
  return "healthy";
}

const FamilyAnswer* PoolAnswer::family(dns::RRType type) const {
  if (type == dns::RRType::A) return &a;
  if (type == dns::RRType::AAAA) return &aaaa;
  return nullptr;
}

std::uint32_t PoolAnswer::ttl_at(const FamilyAnswer& family, base::SteadyTime now) const {
  if (!suspicion_ttl || !family.suspicion_deadline) return ttl;
  if (*family.suspicion_deadline <= now) return 0;
  auto left = std::chrono::duration_cast<std::chrono::seconds>(*family.suspicion_deadline - now).count();
  return std::min<std::uint32_t>(ttl, static_cast<std::uint32_t>(left));
}

PoolAnswers::PoolAnswers(std::vector<PoolAnswer> pools) : pools_(std::move(pools)) {
  std::sort(pools_.begin(), pools_.end(), [](const auto& x, const auto& y) { return x.owner.canonical_compare(y.owner) < 0; });
  for (const auto& pool : pools_) lower_wires_.push_back(pool.owner.lowercased().wire());
}

const PoolAnswer* PoolAnswers::find(const dns::Name& owner) const {
  auto it = std::lower_bound(pools_.begin(), pools_.end(), owner,
                             [](const PoolAnswer& pool, const dns::Name& name) { return pool.owner.canonical_compare(name) < 0; });
  return it != pools_.end() && it->owner == owner ? &*it : nullptr;
}

bool PoolAnswers::owns_wire(std::span<const std::uint8_t> wire) const {
  for (const auto& owner : lower_wires_) {
    if (owner.size() != wire.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < wire.size() && same; ++i) same = dns::ascii_lower(wire[i]) == owner[i];
    if (same) return true;
  }
  return false;
}

base::Result<PoolRecords> select_records(const PoolAnswer& pool, dns::RRType type, base::SteadyTime now) {
  PoolRecords records;
  const FamilyAnswer* family = pool.family(type);
  if (family == nullptr) return base::make_error(base::ErrorCode::kInvalidArgument, "pools answer only A and AAAA");
  records.ttl = pool.ttl_at(*family, now);
  if (family->per_query == 0) {
    records.fixed = &family->fixed;
    return records;
  }
  thread_local std::mt19937_64 random{std::random_device{}()};
  for (std::size_t index : weighted_draw(family->weights, family->per_query, random)) {
    records.picked.push_back(family->draw[index]);
  }
  return records;
}

}  // namespace cutover::pool
