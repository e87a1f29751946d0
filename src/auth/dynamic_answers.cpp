// DynamicAnswers lookup, pre-encoding and per-query record selection.
#include "auth/dynamic_answers.h"

#include <algorithm>
#include <array>
#include <limits>
#include <random>

#include "base/bytes.h"
#include "dns/answer_record.h"

namespace cutover::auth {
namespace {

// Fixed answers repeat their members (but the last) so every rotation is one slice. Left
// unencodable (record_size 0) when sizes differ or the arithmetic would not fit 16 bits.
EncodedFamily encode_family(const DynamicFamily& family, std::uint32_t ttl) {
  EncodedFamily encoded;
  std::size_t members = family.member_count();
  if (members == 0 || members > kMaxEncodedMembers) return encoded;
  std::size_t rdata_size = family.member(0).size();
  for (std::size_t i = 0; i < members; ++i) {
    if (family.member(i).size() != rdata_size) return encoded;
  }
  base::ByteWriter out(encoded.records);
  std::size_t copies = family.per_query == 0 ? 2 * members - 1 : members;
  for (std::size_t i = 0; i < copies; ++i) dns::write_answer_record(out, family.type, ttl, family.member(i % members));
  encoded.record_size = static_cast<std::uint16_t>(dns::kAnswerRecordHeader + rdata_size);
  encoded.count = static_cast<std::uint16_t>(members);
  return encoded;
}

}  // namespace

const DynamicFamily* DynamicAnswer::family(dns::RRType type) const {
  if (type == dns::RRType::A) return &a;
  if (type == dns::RRType::AAAA) return &aaaa;
  if (type == dns::RRType::CNAME) return &cname;
  return nullptr;
}

const DynamicFamily* DynamicGroup::family(dns::RRType type) const {
  if (type == dns::RRType::A) return &a;
  if (type == dns::RRType::AAAA) return &aaaa;
  if (type == dns::RRType::CNAME) return &cname;
  return nullptr;
}

GroupChoice DynamicAnswer::choose(const ClientNetwork& network) const {
  base::NetworkMatch match = networks->lookup(network.address, network.bits);
  std::size_t group = match.found && match.value < groups.size() ? match.value : std::min(default_group, groups.size() - 1);
  return GroupChoice{group, match.scope};
}

const DynamicFamily* DynamicAnswer::family(dns::RRType type, const ClientNetwork* network) const {
  if (network == nullptr || network->address.empty() || !steered()) return family(type);
  return groups[choose(*network).group].family(type);
}

std::uint32_t DynamicAnswer::ttl_at(const DynamicFamily& family, base::SteadyTime now) const {
  return capped_ttl(ttl, suspicion_ttl, family, now);
}

std::uint32_t capped_ttl(std::uint32_t ttl, bool cap, const DynamicFamily& family, base::SteadyTime now) {
  if (!cap || !family.suspicion_deadline) return ttl;
  if (*family.suspicion_deadline <= now) return 0;
  auto left = std::chrono::duration_cast<std::chrono::seconds>(*family.suspicion_deadline - now).count();
  return std::min<std::uint32_t>(ttl, static_cast<std::uint32_t>(left));
}

DynamicAnswers::DynamicAnswers(std::vector<DynamicAnswer> answers) : answers_(std::move(answers)) {
  std::sort(answers_.begin(), answers_.end(),
            [](const auto& x, const auto& y) { return x.owner.canonical_compare(y.owner) < 0; });
  index_ = zone::NameIndex(answers_.size());
  for (std::size_t i = 0; i < answers_.size(); ++i) {
    const DynamicAnswer& answer = answers_[i];
    restricted_ = restricted_ || answer.views != kEveryView;
    lower_wires_.push_back(answer.owner.lowercased().wire());
    EncodedAnswer encoded{encode_family(answer.a, answer.ttl), encode_family(answer.aaaa, answer.ttl), {}};
    for (const auto& group : answer.groups) {
      encoded.groups.push_back(EncodedAnswer{encode_family(group.a, answer.ttl), encode_family(group.aaaa, answer.ttl), {}});
    }
    encoded_.push_back(std::move(encoded));
    // One name may have one entry per set of views (pools limited to views): the index holds
    // the first of them, the others follow it in `answers_` (next_in_view).
    bool repeated = i > 0 && lower_wires_[i - 1] == lower_wires_[i];
    if (!repeated) index_.insert(zone::hash_lower_wire(lower_wires_.back()), static_cast<std::uint32_t>(i));
  }
}

std::size_t DynamicAnswers::next_in_view(std::size_t position, std::uint16_t view_bit) const {
  for (std::size_t at = position + 1; at < answers_.size() && lower_wires_[at] == lower_wires_[position]; ++at) {
    if ((answers_[at].views & view_bit) != 0) return at;
  }
  return kNone;
}

const EncodedFamily* EncodedAnswer::family(dns::RRType type) const {
  if (type == dns::RRType::A) return &a;
  if (type == dns::RRType::AAAA) return &aaaa;
  return nullptr;
}

std::size_t DynamicAnswers::find_lower(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
  auto position = index_.find(hash, [&](std::uint32_t at) {
    const auto& owner = lower_wires_[at];
    return owner.size() == lower_wire.size() && zone::equal_bytes(owner.data(), lower_wire.data(), owner.size());
  });
  return position ? *position : kNone;
}

const DynamicAnswer* DynamicAnswers::find(const dns::Name& owner) const {
  // The same hash index as the fast path: lowercase the wire name on the stack, no allocation.
  std::array<std::uint8_t, dns::Name::kMaxWireLength> lower;
  const auto& wire = owner.wire();
  for (std::size_t i = 0; i < wire.size(); ++i) lower[i] = dns::ascii_lower(wire[i]);
  std::span<const std::uint8_t> lower_wire(lower.data(), wire.size());
  std::size_t position = find_lower(lower_wire, zone::hash_lower_wire(lower_wire));
  return position == kNone ? nullptr : &answers_[position];
}

const DynamicAnswer* DynamicAnswers::find(const dns::Name& owner, std::uint16_t view_bit) const {
  const DynamicAnswer* first = find(owner);
  if (first == nullptr || !restricted_ || (first->views & view_bit) != 0) return first;
  std::size_t position = next_in_view(static_cast<std::size_t>(first - answers_.data()), view_bit);
  return position == kNone ? nullptr : &answers_[position];
}

std::mt19937_64& draw_generator() {
  thread_local std::mt19937_64 random{std::random_device{}()};
  return random;
}

DynamicRecords pick_records(const DynamicFamily& family, std::uint32_t ttl) {
  DynamicRecords records;
  records.ttl = ttl;
  if (family.per_query == 0) {
    records.fixed = &family.fixed;
    return records;
  }
  for (std::size_t index : weighted_draw(family.weights, family.per_query, draw_generator())) {
    records.picked.push_back(family.draw[index]);
  }
  return records;
}

base::Result<DynamicRecords> select_records(const DynamicAnswer& answer, dns::RRType type, base::SteadyTime now,
                                            const ClientNetwork* network) {
  const DynamicFamily* family = answer.family(type, network);
  if (family == nullptr) return base::make_error(base::ErrorCode::kInvalidArgument, "dynamic answers hold only A and AAAA");
  return pick_records(*family, answer.ttl_at(*family, now));
}

}  // namespace cutover::auth
