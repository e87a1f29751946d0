// PoolAnswers: the pools' snapshot and the engine snapshot made from it.
#include "pool/pool_answers.h"

#include <algorithm>

namespace cutover::pool {

const char* mode_to_text(AnswerMode mode) {
  switch (mode) {
    case AnswerMode::kHealthy: return "healthy";
    case AnswerMode::kPanic: return "panic";
    case AnswerMode::kFailOpen: return "fail-open";
    case AnswerMode::kFallback: return "fallback";
    case AnswerMode::kNoData: return "nodata";
  }
  return "healthy";
}

bool is_all_down(AnswerMode mode) {
  return mode == AnswerMode::kFailOpen || mode == AnswerMode::kFallback || mode == AnswerMode::kNoData;
}

const FamilyAnswer* PoolAnswer::family(dns::RRType type) const {
  if (type == dns::RRType::A) return &a;
  if (type == dns::RRType::AAAA) return &aaaa;
  if (type == dns::RRType::CNAME) return &cname;
  return nullptr;
}

const FamilyAnswer* RegionAnswer::family(dns::RRType type) const {
  if (type == dns::RRType::A) return &a;
  if (type == dns::RRType::AAAA) return &aaaa;
  if (type == dns::RRType::CNAME) return &cname;
  return nullptr;
}

std::uint32_t PoolAnswer::ttl_at(const FamilyAnswer& family, base::SteadyTime now) const {
  return auth::capped_ttl(ttl, suspicion_ttl, family, now);
}

auth::DynamicAnswer PoolAnswer::dynamic() const {
  auth::DynamicAnswer answer;
  answer.source = pool;
  answer.owner = owner;
  answer.ttl = ttl;
  answer.suspicion_ttl = suspicion_ttl;
  answer.a = a;  // the engine's part of each family
  answer.aaaa = aaaa;
  answer.alias = alias;
  answer.cname = cname;
  answer.counters = counters;
  answer.views = views;
  if (networks != nullptr) {
    answer.networks = networks;
    answer.default_group = default_region;
    for (const RegionAnswer& region : regions) {
      answer.groups.push_back(auth::DynamicGroup{region.region, region.a, region.aaaa, region.cname});
    }
  }
  return answer;
}

PoolAnswers::PoolAnswers(std::vector<PoolAnswer> pools) : pools_(std::move(pools)) {
  std::sort(pools_.begin(), pools_.end(), [](const auto& x, const auto& y) { return x.owner.canonical_compare(y.owner) < 0; });
  std::vector<auth::DynamicAnswer> answers;
  answers.reserve(pools_.size());
  for (const PoolAnswer& pool : pools_) answers.push_back(pool.dynamic());
  dynamic_ = std::make_shared<const auth::DynamicAnswers>(std::move(answers));
}

const PoolAnswer* PoolAnswers::find_pool(const std::string& id) const {
  for (const PoolAnswer& answer : pools_) {
    if (answer.pool == id) return &answer;
  }
  return nullptr;
}

const PoolAnswer* PoolAnswers::find(const dns::Name& owner) const {
  auto it = std::lower_bound(pools_.begin(), pools_.end(), owner,
                             [](const PoolAnswer& pool, const dns::Name& name) { return pool.owner.canonical_compare(name) < 0; });
  return it != pools_.end() && it->owner == owner ? &*it : nullptr;
}

base::Result<PoolRecords> select_records(const PoolAnswer& pool, dns::RRType type, base::SteadyTime now) {
  const FamilyAnswer* family = pool.family(type);
  if (family == nullptr) return base::make_error(base::ErrorCode::kInvalidArgument, "pools answer only A, AAAA and CNAME");
  return auth::pick_records(*family, pool.ttl_at(*family, now));
}

}  // namespace cutover::pool
