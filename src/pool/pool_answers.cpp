// PoolAnswers lookup and per-query record selection.
#include "pool/pool_answers.h"

#include <algorithm>
#include <limits>
#include <random>

#include "base/bytes.h"
#include "dns/answer_record.h"

namespace cutover::pool {
namespace {

// Fixed answers repeat their members (but the last) so every rotation is one slice. Left
// unencodable (record_size 0) when sizes differ or the arithmetic would not fit 16 bits.
EncodedFamily encode_family(const FamilyAnswer& family, std::uint32_t ttl) {
  EncodedFamily encoded;
  const auto& members = family.per_query == 0 ? family.fixed.rdatas : family.draw;
  if (members.empty() || members.size() > kMaxEncodedMembers) return encoded;
  std::size_t rdata_size = members.front().size();
  for (const auto& rdata : members) {
    if (rdata.size() != rdata_size) return encoded;
  }
  base::ByteWriter out(encoded.records);
  std::size_t copies = family.per_query == 0 ? 2 * members.size() - 1 : members.size();
  for (std::size_t i = 0; i < copies; ++i) dns::write_answer_record(out, family.type, ttl, members[i % members.size()]);
  encoded.record_size = static_cast<std::uint16_t>(dns::kAnswerRecordHeader + rdata_size);
  encoded.count = static_cast<std::uint16_t>(members.size());
  return encoded;
}

}  // namespace

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
  index_ = zone::NameIndex(pools_.size());
  for (std::size_t i = 0; i < pools_.size(); ++i) {
    const PoolAnswer& pool = pools_[i];
    lower_wires_.push_back(pool.owner.lowercased().wire());
    encoded_.push_back(EncodedPool{encode_family(pool.a, pool.ttl), encode_family(pool.aaaa, pool.ttl)});
    index_.insert(zone::hash_lower_wire(lower_wires_.back()), static_cast<std::uint32_t>(i));
  }
}

const EncodedFamily* EncodedPool::family(dns::RRType type) const {
  if (type == dns::RRType::A) return &a;
  if (type == dns::RRType::AAAA) return &aaaa;
  return nullptr;
}

std::size_t PoolAnswers::find_lower(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
  auto position = index_.find(hash, [&](std::uint32_t at) {
    const auto& owner = lower_wires_[at];
    return owner.size() == lower_wire.size() && zone::equal_bytes(owner.data(), lower_wire.data(), owner.size());
  });
  return position ? *position : kNoPool;
}

const PoolAnswer* PoolAnswers::find(const dns::Name& owner) const {
  auto it = std::lower_bound(pools_.begin(), pools_.end(), owner,
                             [](const PoolAnswer& pool, const dns::Name& name) { return pool.owner.canonical_compare(name) < 0; });
  return it != pools_.end() && it->owner == owner ? &*it : nullptr;
}

std::mt19937_64& draw_generator() {
  thread_local std::mt19937_64 random{std::random_device{}()};
  return random;
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
  for (std::size_t index : weighted_draw(family->weights, family->per_query, draw_generator())) {
    records.picked.push_back(family->draw[index]);
  }
  return records;
}

}  // namespace cutover::pool
