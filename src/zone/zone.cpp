// Building the Zone index from records, and the lookups the answer engine needs.
#include "zone/zone.h"

#include <algorithm>
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
  return build(origin, std::vector<dns::ResourceRecord>(records), order, negative);
}

Result<std::shared_ptr<const Zone>> Zone::build(const Name& origin, std::vector<dns::ResourceRecord>&& records,
                                                const OrderPolicy& order, NegativeTtlMode negative) {
  std::shared_ptr<Zone> zone(new Zone());
  zone->origin_ = origin;
  zone->negative_mode_ = negative;
  zone->origin_lower_ = origin.lowercased().wire();
  // Owners are found by their lowercase wire form in a table of node numbers, so grouping
  // copies no Name; records of one owner are usually adjacent, so the last node is tried first.
  NameIndex node_of(records.size());
  zone->nodes_.reserve(records.size());
  std::size_t last_node = 0;
  for (auto& record : records) {
    if (!record.owner.is_subdomain_of(origin)) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} is outside the zone {}", record.owner.to_text(), origin.to_text()));
    }
    if (dns::is_meta_type(record.type)) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} has meta type {}", record.owner.to_text(), dns::type_to_text(record.type)));
    }
    LowerName lower(record.owner);
    if (zone->nodes_.empty() || !same_name(zone->nodes_[last_node].name, lower.all())) {
      auto hash = hash_lower_wire(lower.all());
      auto found = node_of.find(hash, [&](std::uint32_t value) { return same_name(zone->nodes_[value].name, lower.all()); });
      if (found) {
        last_node = *found;
      } else {
        last_node = zone->nodes_.size();
        node_of.insert(hash, static_cast<std::uint32_t>(last_node));
        zone->nodes_.push_back(Node{std::move(record.owner), {}});
      }
    }
    Node& node = zone->nodes_[last_node];
    RRset* rrset = nullptr;
    for (auto& candidate : node.rrsets) {
      if (candidate.type == record.type) rrset = &candidate;
    }
    if (rrset == nullptr) {
      node.rrsets.emplace_back(record.type, record.ttl);
      rrset = &node.rrsets.back();
      rrset->order = order_for(order, node.name);
    }
    rrset->ttl = std::min(rrset->ttl, record.ttl);
    bool duplicate = std::any_of(rrset->rdatas.begin(), rrset->rdatas.end(), [&](const dns::Rdata& existing) {
      return dns::rdata_canonical_equal(record.type, existing, record.rdata);
    });
    if (!duplicate) {
      rrset->rdatas.push_back(std::move(record.rdata));
      ++zone->record_count_;
    }
  }
  std::vector<dns::ResourceRecord>().swap(records);
  zone->nodes_.shrink_to_fit();
  for (auto& node : zone->nodes_) node.rrsets.shrink_to_fit();
  LowerName origin_lower(origin);
  auto apex = node_of.find(hash_lower_wire(origin_lower.all()),
                           [&](std::uint32_t value) { return same_name(zone->nodes_[value].name, origin_lower.all()); });
  if (!apex || zone->nodes_[*apex].find(RRType::SOA) == nullptr) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("zone {} has no SOA at its apex", origin.to_text()));
  }
  zone->apex_ = *apex;
  zone->soa_ = zone->nodes_[*apex].find(RRType::SOA);
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
