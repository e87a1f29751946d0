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
// unencodable (view.record_size 0) when sizes differ, a draw asks for more than the fast
// path's scratch holds, or its weights sum to 0.
EncodedFamily encode_family(const DynamicFamily& family, std::uint32_t ttl) {
  EncodedFamily encoded;
  std::size_t members = family.member_count();
  if (members == 0 || members > kMaxEncodedMembers || family.per_query > kMaxEncodedMembers) return encoded;
  std::size_t rdata_size = family.member(0).size();
  for (std::size_t i = 0; i < members; ++i) {
    if (family.member(i).size() != rdata_size) return encoded;
  }
  std::uint64_t weight_total = 0;
  for (std::uint32_t weight : family.weights) weight_total += weight;
  if (family.per_query != 0 && weight_total == 0) return encoded;
  // A draw among one candidate always answers it: encoded as the fixed answer it is (no
  // random step per query; a weighted pool left with one live endpoint, a steered group of one).
  std::size_t per_query = members == 1 ? 0 : family.per_query;
  base::ByteWriter out(encoded.records);
  std::size_t copies = per_query == 0 ? 2 * members - 1 : members;
  for (std::size_t i = 0; i < copies; ++i) dns::write_answer_record(out, family.type, ttl, family.member(i % members));
  encoded.view = PlainFamily{encoded.records.data(),
                             family.weights.data(),
                             &family.fixed.rotation,
                             static_cast<std::uint16_t>(dns::kAnswerRecordHeader + rdata_size),
                             static_cast<std::uint16_t>(members),
                             static_cast<std::uint16_t>(per_query),
                             std::all_of(family.weights.begin(), family.weights.end(),
                                         [&](std::uint32_t weight) { return weight == family.weights.front(); }),
                             weight_total};
  return encoded;
}

}  // namespace

GroupChoice DynamicAnswer::choose(const ClientNetwork& network) const {
  return Steering{networks.get(), groups.size(), std::min(default_group, groups.size() - 1)}.choose(network);
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
  // Load at most an eighth, not the half a zone's index has: a pool name's lookup is every
  // query of it, and a probe past the first slot costs it more than the 64 bytes of slots
  // per pool cost the snapshot (a pool's encoded answers are several hundred).
  // Its values are offsets into owner_arena_: each owner takes 5 bytes and its name there.
  std::size_t arena_limit = 1;
  for (const auto& answer : answers_) arena_limit += 5 + answer.owner.wire().size();
  index_ = zone::NameIndex(answers_.size() * 4, arena_limit);
  cut_checks_ = std::make_unique<std::atomic<std::uint64_t>[]>(answers_.size());
  steering_.resize(answers_.size());
  plain_.resize(answers_.size());
  for (std::size_t i = 0; i < answers_.size(); ++i) {
    const DynamicAnswer& answer = answers_[i];
    restricted_ = restricted_ || answer.views != kEveryView;
    std::vector<std::uint8_t> lower = answer.owner.lowercased().wire();
    // [position, 4 bytes][size][name]: a lookup confirms the name and reads the position in
    // one place, as the zone's FastIndex entries do.
    owners_.push_back(OwnerRef{static_cast<std::uint32_t>(owner_arena_.size()), static_cast<std::uint32_t>(lower.size())});
    auto position = static_cast<std::uint32_t>(i);
    const auto* position_bytes = reinterpret_cast<const std::uint8_t*>(&position);
    owner_arena_.insert(owner_arena_.end(), position_bytes, position_bytes + sizeof position);
    owner_arena_.push_back(static_cast<std::uint8_t>(lower.size()));
    owner_arena_.insert(owner_arena_.end(), lower.begin(), lower.end());
    EncodedAnswer encoded{encode_family(answer.a, answer.ttl), encode_family(answer.aaaa, answer.ttl), {}};
    for (const auto& group : answer.groups) {
      encoded.groups.push_back(EncodedAnswer{encode_family(group.a, answer.ttl), encode_family(group.aaaa, answer.ttl), {}});
    }
    encoded_.push_back(std::move(encoded));
    // One name may have one entry per set of views (pools limited to views): the index holds
    // the first of them, the others follow it in `answers_` (next_in_view).
    if (i == 0 || !same_owner(i - 1, i)) {
      index_.insert(zone::hash_lower_wire(std::span<const std::uint8_t>(lower)), owners_.back().at);
    }
  }
  index_view_ = index_.view();
  // After the loop: the pointers are into elements that no longer move.
  for (std::size_t i = 0; i < answers_.size(); ++i) {
    const DynamicAnswer& answer = answers_[i];
    plain_[i].entry = &answer;
    if (answer.alias) continue;
    auto capped = [&](const DynamicFamily& family) { return answer.suspicion_ttl && family.suspicion_deadline.has_value(); };
    if (answer.steered() &&
        std::any_of(answer.groups.begin(), answer.groups.end(), [&](const DynamicGroup& group) { return capped(group.a) || capped(group.aaaa); })) {
      continue;
    }
    plain_[i].a = capped(answer.a) ? PlainFamily{} : encoded_[i].a.view;
    plain_[i].aaaa = capped(answer.aaaa) ? PlainFamily{} : encoded_[i].aaaa.view;
    plain_[i].steered = answer.steered();
    if (answer.steered()) {
      steering_[i] = Steering{answer.networks.get(), answer.groups.size(), std::min(answer.default_group, answer.groups.size() - 1),
                              group_plain_.size()};
      for (const EncodedAnswer& group : encoded_[i].groups) group_plain_.push_back(PlainAnswer{group.a.view, group.aaaa.view});
    }
  }
}

bool DynamicAnswers::same_owner(std::size_t x, std::size_t y) const {
  const OwnerRef& a = owners_[x];
  const OwnerRef& b = owners_[y];
  const std::uint8_t* x_name = owner_arena_.data() + a.at + kOwnerName;
  return a.size == b.size && std::equal(x_name, x_name + a.size, owner_arena_.data() + b.at + kOwnerName);
}

std::size_t DynamicAnswers::next_in_view(std::size_t position, std::uint16_t view_bit) const {
  for (std::size_t at = position + 1; at < answers_.size() && same_owner(at, position); ++at) {
    if ((answers_[at].views & view_bit) != 0) return at;
  }
  return kNone;
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

void seed_draw_generator(DrawGenerator& generator) {
  std::random_device device;
  generator = DrawGenerator((std::uint64_t{device()} << 32) ^ device());
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
