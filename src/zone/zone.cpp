// Building the Zone index from records, and the lookups the answer engine needs.
#include "zone/zone.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "zone/owner_numbering.h"

namespace cutover::zone {

using base::ErrorCode;
using base::make_error;
using base::Result;
using dns::Name;
using dns::RRType;

namespace {

// Index values: the low 31 bits select a node, or an empty non-terminal when kEmptyBit is set.
constexpr std::uint32_t kEmptyBit = 0x80000000u;
constexpr std::uint32_t kIndexMask = 0x7FFFFFFFu;

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
  OwnerNumberer numberer(origin, records.size());
  for (const auto& record : records) numberer.add(record.owner);
  return build(origin, std::move(records), std::move(numberer).finish(), order, negative);
}

Result<std::shared_ptr<const Zone>> Zone::build(const Name& origin, std::vector<dns::ResourceRecord>&& records,
                                                OwnerNumbering&& numbering, const OrderPolicy& order,
                                                NegativeTtlMode negative) {
  std::shared_ptr<Zone> zone(new Zone());
  zone->origin_ = origin;
  zone->negative_mode_ = negative;
  zone->origin_lower_ = origin.lowercased().wire();
  // Owners are numbered in order of first appearance, so a new owner is always the next node.
  assert(numbering.owner_of.size() == records.size());
  zone->nodes_.reserve(numbering.owners);
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto& record = records[i];
    std::uint32_t owner = numbering.owner_of[i];
    if (owner == OwnerNumbering::kOutside) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} is outside the zone {}", record.owner.to_text(), origin.to_text()));
    }
    if (dns::is_meta_type(record.type)) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} has meta type {}", record.owner.to_text(), dns::type_to_text(record.type)));
    }
    assert(owner <= zone->nodes_.size());
    if (owner == zone->nodes_.size()) zone->nodes_.push_back(Node{std::move(record.owner), {}});
    Node& node = zone->nodes_[owner];
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
  std::vector<std::uint32_t>().swap(numbering.owner_of);
  for (auto& node : zone->nodes_) {
    node.rrsets.shrink_to_fit();
    for (auto& rrset : node.rrsets) rrset.rdatas.shrink_to_fit();
  }
  zone->index_ = std::move(numbering.index);
  LowerName origin_lower(origin);
  auto apex = zone->index_.find(hash_lower_wire(origin_lower.all()),
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

// Marks every node with something below it and adds the empty non-terminals to the index,
// which already holds every node. Most names sit right below the apex: nothing to look up.
void Zone::index_names() {
  std::unordered_map<std::string, std::uint32_t> empty_index;
  std::size_t origin_labels = origin_.label_count();
  for (const auto& node : nodes_) {
    std::size_t node_labels = node.name.label_count();
    if (node_labels == origin_labels + 1) nodes_[apex_].has_descendants = true;
    if (node_labels <= origin_labels + 1) continue;
    LowerName lower(node.name);
    // Walk up to the apex; stop at the first ancestor already marked, as its own
    // ancestors were marked when it was.
    for (std::size_t labels = lower.label_count - 1; labels + 1 > origin_labels && labels < lower.label_count; --labels) {
      auto ancestor = lower.suffix(labels);
      auto found = index_.find(hash_lower_wire(ancestor),
                               [&](std::uint32_t value) { return same_name(nodes_[value].name, ancestor); });
      if (found) {
        if (nodes_[*found].has_descendants) break;
        nodes_[*found].has_descendants = true;
        continue;
      }
      std::string key(ancestor.begin(), ancestor.end());
      if (empty_index.contains(key)) break;
      empty_index.emplace(std::move(key), static_cast<std::uint32_t>(empty_non_terminals_.size()));
      empty_non_terminals_.push_back(*Name::from_uncompressed(ancestor));
    }
  }
  // The owner numbering sized the table for the records; rebuild it only when the names
  // would fill more than half of it, or less than an eighth.
  std::size_t names = nodes_.size() + empty_non_terminals_.size();
  if (names * 2 > index_.slot_count() || names * 8 < index_.slot_count()) {
    index_ = NameIndex(names);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      index_.insert(hash_lower_wire(LowerName(nodes_[i].name).all()), static_cast<std::uint32_t>(i));
    }
  }
  for (std::size_t i = 0; i < empty_non_terminals_.size(); ++i) {
    index_.insert(hash_lower_wire(LowerName(empty_non_terminals_[i]).all()), static_cast<std::uint32_t>(i) | kEmptyBit);
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
  if ((*found & kEmptyBit) != 0) {
    result.has_descendants = true;
  } else {
    result.node = &nodes_[*found];
    result.has_descendants = result.node->has_descendants;
  }
  return result;
}

NameIndex Zone::remapped_index(std::span<const std::uint32_t> node_values,
                               std::span<const std::uint32_t> empty_values) const {
  return index_.remapped([&](std::uint32_t value) {
    return (value & kEmptyBit) != 0 ? empty_values[value & kIndexMask] : node_values[value];
  });
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
