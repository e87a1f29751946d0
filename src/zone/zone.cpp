// Building the Zone index from records, and the lookups the answer engine needs.
#include "zone/zone.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

namespace cutover::zone {

using base::ErrorCode;
using base::make_error;
using base::Result;
using dns::Name;
using dns::RRType;

namespace {

// Index values: the low 30 bits select a node (or an empty non-terminal when kEmptyBit is
// set); kDescendantsBit says something lies below the name.
constexpr std::uint32_t kEmptyBit = 0x80000000u;
constexpr std::uint32_t kDescendantsBit = 0x40000000u;
constexpr std::uint32_t kIndexMask = 0x3FFFFFFFu;

// A name's lowercase wire form and where each label starts, on the stack.
struct LowerName {
  std::array<std::uint8_t, Name::kMaxWireLength> wire{};
  std::size_t size = 0;
  std::array<std::uint8_t, 128> labels{};
  std::size_t label_count = 0;

  explicit LowerName(const Name& name) {
    const auto& source = name.wire();
    size = source.size();
    for (std::size_t pos = 0; source[pos] != 0; pos += 1u + source[pos]) labels[label_count++] = static_cast<std::uint8_t>(pos);
    for (std::size_t i = 0; i < size; ++i) wire[i] = dns::ascii_lower(source[i]);
  }
  std::span<const std::uint8_t> all() const { return {wire.data(), size}; }
  // The name with only its rightmost `count` labels.
  std::span<const std::uint8_t> suffix(std::size_t count) const {
    if (count == 0) return {wire.data() + size - 1, 1};
    std::size_t start = count >= label_count ? 0 : labels[label_count - count];
    return {wire.data() + start, size - start};
  }
};

RRsetOrder order_for(const OrderPolicy& policy, const Name& owner) {
  for (const auto& [name, order] : policy.per_name) {
    if (name == owner) return order;
  }
  return policy.zone_default;
}

// Types whose rdata never holds a name (RFC 3597 §4 forbids compressing names in newer
// types, but the old ones below would compress, so only these are copied verbatim).
bool holds_no_name(RRType type) {
  switch (type) {
    case RRType::A: case RRType::AAAA: case RRType::TXT: case RRType::HINFO: case RRType::SSHFP:
    case RRType::TLSA: case RRType::CAA: case RRType::DS: case RRType::DNSKEY:
      return true;
    default:
      return false;
  }
}

}  // namespace

const RRset* Node::find(RRType type) const {
  for (const auto& rrset : rrsets) {
    if (rrset.type == type) return &rrset;
  }
  return nullptr;
}

Result<std::shared_ptr<const Zone>> Zone::build(const Name& origin, const std::vector<dns::ResourceRecord>& records,
                                                const OrderPolicy& order, NegativeTtlMode negative) {
  std::shared_ptr<Zone> zone(new Zone());
  zone->origin_ = origin;
  zone->negative_mode_ = negative;
  zone->origin_lower_ = origin.lowercased().wire();
  std::unordered_map<Name, std::uint32_t, dns::NameHash> node_of;
  node_of.reserve(records.size());
  for (const auto& record : records) {
    if (!record.owner.is_subdomain_of(origin)) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} is outside the zone {}", record.owner.to_text(), origin.to_text()));
    }
    if (dns::is_meta_type(record.type)) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} has meta type {}", record.owner.to_text(), dns::type_to_text(record.type)));
    }
    auto [it, inserted] = node_of.try_emplace(record.owner, static_cast<std::uint32_t>(zone->nodes_.size()));
    if (inserted) zone->nodes_.push_back(Node{record.owner, {}});
    Node& node = zone->nodes_[it->second];
    RRset* rrset = nullptr;
    for (auto& candidate : node.rrsets) {
      if (candidate.type == record.type) rrset = &candidate;
    }
    if (rrset == nullptr) {
      node.rrsets.emplace_back(record.type, record.ttl);
      rrset = &node.rrsets.back();
      rrset->order = order_for(order, record.owner);
    }
    rrset->ttl = std::min(rrset->ttl, record.ttl);
    auto canonical = dns::rdata_canonical(record.type, record.rdata);
    bool duplicate = std::any_of(rrset->rdatas.begin(), rrset->rdatas.end(), [&](const dns::Rdata& existing) {
      return dns::rdata_canonical(record.type, existing) == canonical;
    });
    if (!duplicate) {
      rrset->rdatas.push_back(record.rdata);
      ++zone->record_count_;
    }
  }
  for (auto& node : zone->nodes_) node.rrsets.shrink_to_fit();
  auto apex = node_of.find(origin);
  if (apex == node_of.end() || zone->nodes_[apex->second].find(RRType::SOA) == nullptr) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("zone {} has no SOA at its apex", origin.to_text()));
  }
  zone->apex_ = apex->second;
  zone->soa_ = zone->nodes_[apex->second].find(RRType::SOA);
  if (zone->soa_->rdatas.size() != 1) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("zone {} has more than one SOA", origin.to_text()));
  }
  auto soa = dns::parse_soa(zone->soa_->rdatas.front());
  if (!soa) return make_error(ErrorCode::kMalformed, fmt::format("zone {}: bad SOA: {}", origin.to_text(), soa.error().message));
  zone->soa_fields_ = *soa;
  for (auto& node : zone->nodes_) {
    for (auto& rrset : node.rrsets) {
      rrset.plain = rrset.order == RRsetOrder::kFixed && holds_no_name(rrset.type);
      zone->has_dnames_ = zone->has_dnames_ || rrset.type == RRType::DNAME;
      zone->has_cuts_ = zone->has_cuts_ || (rrset.type == RRType::NS && &node != &zone->apex());
    }
    zone->has_wildcards_ = zone->has_wildcards_ || node.name.is_wildcard();
  }
  zone->index_names();
  zone->mark_delegations();
  return std::shared_ptr<const Zone>(std::move(zone));
}

// Indexes every node and every empty non-terminal, each flagged when something lies below it.
void Zone::index_names() {
  NameIndex nodes_only(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    nodes_only.insert(hash_lower_wire(LowerName(nodes_[i].name).all()), static_cast<std::uint32_t>(i));
  }
  std::vector<bool> node_has_descendants(nodes_.size(), false);
  std::unordered_map<std::string, std::uint32_t> empty_index;
  std::size_t origin_labels = origin_.label_count();
  for (const auto& node : nodes_) {
    LowerName lower(node.name);
    // Walk up to the apex; stop at the first ancestor already marked, as its own
    // ancestors were marked when it was.
    for (std::size_t labels = lower.label_count - 1; labels + 1 > origin_labels && labels < lower.label_count; --labels) {
      auto ancestor = lower.suffix(labels);
      auto found = nodes_only.find(hash_lower_wire(ancestor),
                                   [&](std::uint32_t value) { return same_name(nodes_[value].name, ancestor); });
      if (found) {
        if (node_has_descendants[*found]) break;
        node_has_descendants[*found] = true;
        continue;
      }
      std::string key(ancestor.begin(), ancestor.end());
      if (empty_index.contains(key)) break;
      empty_index.emplace(std::move(key), static_cast<std::uint32_t>(empty_non_terminals_.size()));
      empty_non_terminals_.push_back(*Name::from_uncompressed(ancestor));
    }
  }
  index_ = NameIndex(nodes_.size() + empty_non_terminals_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    auto value = static_cast<std::uint32_t>(i) | (node_has_descendants[i] ? kDescendantsBit : 0);
    index_.insert(hash_lower_wire(LowerName(nodes_[i].name).all()), value);
  }
  for (std::size_t i = 0; i < empty_non_terminals_.size(); ++i) {
    auto value = static_cast<std::uint32_t>(i) | kEmptyBit | kDescendantsBit;
    index_.insert(hash_lower_wire(LowerName(empty_non_terminals_[i]).all()), value);
  }
}

void Zone::mark_delegations() {
  if (!has_cuts_) return;
  for (auto& node : nodes_) node.delegated = find_delegation(node.name) != nullptr;
}

std::uint32_t Zone::negative_ttl() const {
  if (negative_mode_ == NegativeTtlMode::kSoaTtl) return soa_->ttl;
  return std::min(soa_->ttl, soa_fields_.minimum);
}

NameLookup Zone::lookup(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
  auto found = index_.find(hash, [&](std::uint32_t value) {
    const Name& name = (value & kEmptyBit) != 0 ? empty_non_terminals_[value & kIndexMask] : nodes_[value & kIndexMask].name;
    return same_name(name, lower_wire);
  });
  if (!found) return {};
  NameLookup result;
  result.exists = true;
  result.has_descendants = (*found & kDescendantsBit) != 0;
  if ((*found & kEmptyBit) == 0) result.node = &nodes_[*found & kIndexMask];
  return result;
}

const Node* Zone::find(const Name& name) const { return lookup(LowerName(name).all()).node; }

bool Zone::has_descendants(const Name& name) const { return lookup(LowerName(name).all()).has_descendants; }

const Node* Zone::find_delegation(const Name& name) const {
  if (!has_cuts_ || !name.is_subdomain_of(origin_)) return nullptr;
  LowerName lower(name);
  for (std::size_t labels = origin_.label_count() + 1; labels <= lower.label_count; ++labels) {
    const Node* node = lookup(lower.suffix(labels)).node;
    if (node != nullptr && node->find(RRType::NS) != nullptr) return node;
  }
  return nullptr;
}

std::vector<dns::ResourceRecord> Zone::records() const {
  std::vector<const Node*> sorted_nodes;
  for (const auto& node : nodes_) sorted_nodes.push_back(&node);
  std::sort(sorted_nodes.begin(), sorted_nodes.end(),
            [](const Node* a, const Node* b) { return a->name.canonical_compare(b->name) < 0; });
  std::vector<dns::ResourceRecord> out;
  for (const Node* node : sorted_nodes) {
    std::vector<const RRset*> sorted;
    for (const auto& rrset : node->rrsets) sorted.push_back(&rrset);
    std::sort(sorted.begin(), sorted.end(), [](const RRset* a, const RRset* b) { return a->type < b->type; });
    for (const RRset* rrset : sorted) {
      std::vector<dns::Rdata> rdatas = rrset->rdatas;
      std::sort(rdatas.begin(), rdatas.end(), [&](const dns::Rdata& a, const dns::Rdata& b) {
        return dns::rdata_canonical(rrset->type, a) < dns::rdata_canonical(rrset->type, b);
      });
      for (auto& rdata : rdatas) {
        out.push_back(dns::ResourceRecord{node->name, rrset->type, dns::RRClass::IN, rrset->ttl, std::move(rdata)});
      }
    }
  }
  return out;
}

}  // namespace cutover::zone
