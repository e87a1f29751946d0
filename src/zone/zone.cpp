// Building the Zone index from records, and the lookups the answer engine needs.
#include "zone/zone.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
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

// One name of a patched zone whose lookup differs from its base's (zone.h, Zone::patch).
// Made once, then shared by every later patch that keeps it; never moved (the node's spans
// point into its own vectors).
struct PatchEntry {
  std::vector<std::uint8_t> lower;  // lowercase wire form: the patch index's key
  std::uint64_t hash = 0;
  std::vector<std::uint8_t> wire;   // as spelled
  std::vector<RRset> rrsets;
  std::vector<std::uint8_t> rdata;  // the RRsets' rdata blocks
  // A node whose records did not change (only whether something lies below it): its RRsets
  // stay where they were, in the base or in this earlier entry, which it keeps alive.
  std::shared_ptr<const PatchEntry> shares;
  Node node;
  bool owns = false;
  bool exists = false;
  bool has_descendants = false;
  std::size_t records = 0;
};

bool same_bytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  return a.size() == b.size() && equal_bytes(a.data(), b.data(), a.size());
}

// One layer of a patch: its entries and a hash table over their names.
struct PatchLayer {
  PatchLayer() = default;
  explicit PatchLayer(std::vector<std::shared_ptr<const PatchEntry>> list) : entries(std::move(list)), index(entries.size()) {
    for (std::size_t i = 0; i < entries.size(); ++i) index.insert(entries[i]->hash, static_cast<std::uint32_t>(i));
  }
  const std::shared_ptr<const PatchEntry>* find(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
    auto found = index.find(hash, [&](std::uint32_t value) { return same_bytes(entries[value]->lower, lower_wire); });
    return found ? &entries[*found] : nullptr;
  }
  std::vector<std::shared_ptr<const PatchEntry>> entries;
  NameIndex index;
};

namespace {

std::size_t records_in(const Node* node) {
  std::size_t count = 0;
  if (node != nullptr) {
    for (const auto& rrset : node->rrsets()) count += rrset.rdatas.size();
  }
  return count;
}

bool is_cut(const Node* node, bool apex) { return node != nullptr && !apex && node->find(RRType::NS) != nullptr; }
bool has_dname(const Node* node) { return node != nullptr && node->find(RRType::DNAME) != nullptr; }

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

OwnerWire Zone::owner_wire(const Node& node) const {
  OwnerWire out;
  auto relative = node.relative_wire();
  const auto& origin = origin_.wire();
  // The apex's part is empty, and its pointer null when no other owner is in the arena.
  if (!relative.empty()) std::memcpy(out.bytes.data(), relative.data(), relative.size());
  std::memcpy(out.bytes.data() + relative.size(), origin.data(), origin.size());
  out.size = relative.size() + origin.size();
  return out;
}

Name Zone::owner(const Node& node) const { return *Name::from_uncompressed(owner_wire(node).all()); }

bool Zone::owns_name(const Node& node, std::span<const std::uint8_t> lower_wire) const {
  auto relative = node.relative_wire();
  return lower_wire.size() == relative.size() + origin_lower_.size() &&
         same_name(relative, lower_wire.first(relative.size())) &&
         equal_bytes(lower_wire.data() + relative.size(), origin_lower_.data(), origin_lower_.size());
}

const RRset* Node::find(RRType type) const {
  for (const auto& rrset : rrsets()) {
    if (rrset.type == type) return &rrset;
  }
  return nullptr;
}

bool is_signed(const Zone& zone) {
  return zone.apex().find(RRType::DNSKEY) != nullptr && zone.apex().find(RRType::RRSIG) != nullptr;
}

bool holds_only_nsec3(const Node& node) {
  bool nsec3 = false;
  for (const auto& rrset : node.rrsets()) {
    if (rrset.type == RRType::NSEC3) {
      nsec3 = true;
    } else if (rrset.type != RRType::RRSIG) {
      return false;
    }
  }
  return nsec3;
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
  // First pass: group the records into RRsets without copying any rdata. Each node chains
  // its RRsets and each RRset its kept records, in order of first appearance. Owners are
  // numbered in order of first appearance, so a new owner is always the next node.
  constexpr std::uint32_t kNone = 0xFFFFFFFF;
  struct Pending {
    dns::RRType type;
    std::uint32_t ttl;
    std::uint32_t first_record = kNone;
    std::uint32_t last_record = kNone;
    std::uint32_t next = kNone;  // the node's next RRset
    std::uint16_t count = 0;
  };
  struct PendingNode {
    std::uint32_t first = kNone;
    std::uint32_t last = kNone;
  };
  assert(numbering.owner_of.size() == records.size());
  std::vector<Pending> pending;
  std::vector<PendingNode> pending_nodes;
  std::vector<Name> owners;  // per node, until the name arena holds them
  std::vector<std::uint32_t> next_record(records.size(), kNone);
  pending.reserve(records.size());  // at most an RRset per record: no regrowth, no moves
  pending_nodes.reserve(numbering.owners);
  owners.reserve(numbering.owners);
  zone->nodes_.reserve(numbering.owners);
  std::size_t arena_bytes = 0;
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
    if (record.rdata.size() > 0xFFFF) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} {} has rdata longer than 65535 bytes", record.owner.to_text(),
                                    dns::type_to_text(record.type)));
    }
    assert(owner <= zone->nodes_.size());
    if (owner == zone->nodes_.size()) {
      owners.push_back(std::move(record.owner));
      zone->nodes_.emplace_back();
      pending_nodes.emplace_back();
    }
    PendingNode& node = pending_nodes[owner];
    std::uint32_t at = node.first;
    while (at != kNone && pending[at].type != record.type) at = pending[at].next;
    if (at == kNone) {
      at = static_cast<std::uint32_t>(pending.size());
      pending.push_back(Pending{record.type, record.ttl});
      (node.first == kNone ? node.first : pending[node.last].next) = at;
      node.last = at;
    }
    Pending& rrset = pending[at];
    rrset.ttl = std::min(rrset.ttl, record.ttl);
    bool duplicate = false;
    for (std::uint32_t r = rrset.first_record; r != kNone && !duplicate; r = next_record[r]) {
      duplicate = dns::rdata_canonical_equal(record.type, records[r].rdata, record.rdata);
    }
    if (duplicate) continue;
    if (rrset.count == 0xFFFF) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("{} {} has more than 65535 records", owners[owner].to_text(),
                                    dns::type_to_text(record.type)));
    }
    auto index = static_cast<std::uint32_t>(i);
    (rrset.first_record == kNone ? rrset.first_record : next_record[rrset.last_record]) = index;
    rrset.last_record = index;
    ++rrset.count;
    arena_bytes += 2 + record.rdata.size();
    ++zone->record_count_;
  }
  // Second pass: lay the RRsets out node by node and their rdata RRset by RRset, each array
  // sized exactly first, so the slices and borrowed blocks taken below never move.
  zone->rrsets_.reserve(pending.size());
  zone->rdata_arena_.reserve(arena_bytes);
  // Each owner without the origin that ends it (the numbering put every owner at or below it).
  std::size_t origin_size = origin.wire().size();
  std::size_t name_bytes = 0;
  for (const auto& owner : owners) name_bytes += owner.wire().size() - origin_size;
  zone->name_arena_.reserve(name_bytes);
  for (std::size_t n = 0; n < zone->nodes_.size(); ++n) {
    Node& node = zone->nodes_[n];
    const auto& wire = owners[n].wire();
    std::size_t relative = wire.size() - origin_size;
    node.name_at = zone->name_arena_.data() + zone->name_arena_.size();
    node.name_size = static_cast<std::uint8_t>(relative);
    zone->name_arena_.insert(zone->name_arena_.end(), wire.begin(), wire.begin() + static_cast<std::ptrdiff_t>(relative));
    std::size_t first = zone->rrsets_.size();
    for (std::uint32_t at = pending_nodes[n].first; at != kNone; at = pending[at].next) {
      const Pending& source = pending[at];
      std::size_t offset = zone->rdata_arena_.size();
      for (std::uint32_t r = source.first_record; r != kNone; r = next_record[r]) {
        RdataList::append_item(zone->rdata_arena_, records[r].rdata);
      }
      RRset& rrset = zone->rrsets_.emplace_back(source.type, source.ttl);
      rrset.rdatas = RdataList::borrowed(zone->rdata_arena_.data() + offset, source.count);
      rrset.order = order_for(order, owners[n]);
      rrset.plain = rrset.order == RRsetOrder::kFixed && holds_no_name(rrset.type);
      zone->has_dnames_ = zone->has_dnames_ || rrset.type == RRType::DNAME;
    }
    node.set_rrsets(std::span<const RRset>(zone->rrsets_.data() + first, zone->rrsets_.size() - first));
    zone->has_wildcards_ = zone->has_wildcards_ || owners[n].is_wildcard();
  }
  assert(zone->rdata_arena_.size() == arena_bytes && zone->name_arena_.size() == name_bytes);
  std::vector<Name>().swap(owners);
  std::vector<dns::ResourceRecord>().swap(records);
  std::vector<std::uint32_t>().swap(numbering.owner_of);
  zone->index_ = std::move(numbering.index);
  LowerName origin_lower(origin);
  auto apex = zone->index_.find(hash_lower_wire(origin_lower.all()),
                           [&](std::uint32_t value) { return zone->owns_name(zone->nodes_[value], origin_lower.all()); });
  if (apex) zone->apex_ = *apex;
  zone->node_count_ = zone->nodes_.size();
  if (auto set = zone->set_apex(apex ? &zone->nodes_[*apex] : nullptr); !set) return set.error();
  for (const auto& node : zone->nodes_) {
    zone->has_cuts_ = zone->has_cuts_ || (&node != &zone->apex() && node.find(RRType::NS) != nullptr);
  }
  zone->index_names();
  zone->mark_delegations();
  return std::shared_ptr<const Zone>(std::move(zone));
}

base::Status Zone::set_apex(const Node* apex) {
  if (apex == nullptr || apex->find(RRType::SOA) == nullptr) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("zone {} has no SOA at its apex", origin_.to_text()));
  }
  apex_node_ = apex;
  soa_ = apex->find(RRType::SOA);
  if (soa_->rdatas.size() != 1) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("zone {} has more than one SOA", origin_.to_text()));
  }
  auto soa = dns::parse_soa(soa_->rdatas.front());
  if (!soa) return make_error(ErrorCode::kMalformed, fmt::format("zone {}: bad SOA: {}", origin_.to_text(), soa.error().message));
  soa_fields_ = *soa;
  return {};
}

// Marks every node with something below it and adds the empty non-terminals to the index,
// which already holds every node. Index values: node i is i, empty non-terminal j is the node
// count plus j (Zone::index_view(), which the answer fast path's offsets follow). Most names
// sit right below the apex: nothing to look up.
void Zone::index_names() {
  std::unordered_map<std::string, std::uint32_t> empty_index;
  std::size_t origin_labels = origin_.label_count();
  for (const auto& node : nodes_) {
    // The apex, and the names one label below it (a zone's usual names: their only ancestor
    // is the apex), need neither their whole name lowercased nor a walk.
    auto relative = node.relative_wire();
    if (relative.empty()) continue;
    if (relative[0] + 1u == relative.size()) {
      nodes_[apex_].has_descendants = true;
      continue;
    }
    // Two labels or more below the origin: walk up to the apex; stop at the first ancestor
    // already marked, as its own ancestors were marked when it was.
    LowerName lower(owner_wire(node).all());
    for (std::size_t labels = lower.label_count - 1; labels + 1 > origin_labels && labels < lower.label_count; --labels) {
      auto ancestor = lower.suffix(labels);
      auto found = index_.find(hash_lower_wire(ancestor),
                               [&](std::uint32_t value) { return owns_name(nodes_[value], ancestor); });
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
  // would fill more than half of it, or less than an eighth, or number past its value limit.
  std::size_t names = nodes_.size() + empty_non_terminals_.size();
  if (names * 2 > index_.slot_count() || names * 8 < index_.slot_count() || names > index_.value_limit()) {
    index_ = NameIndex(names);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      index_.insert(hash_lower_wire(LowerName(owner_wire(nodes_[i]).all()).all()), static_cast<std::uint32_t>(i));
    }
  }
  for (std::size_t i = 0; i < empty_non_terminals_.size(); ++i) {
    index_.insert(hash_lower_wire(LowerName(empty_non_terminals_[i]).all()), static_cast<std::uint32_t>(nodes_.size() + i));
  }
}

void Zone::mark_delegations() {
  if (!has_cuts_) return;
  for (auto& node : nodes_) node.delegated = find_delegation(owner(node)) != nullptr;
}

std::uint32_t Zone::negative_ttl() const {
  if (negative_mode_ == NegativeTtlMode::kSoaTtl) return soa_->ttl;
  return std::min(soa_->ttl, soa_fields_.minimum);
}

NameLookup Zone::lookup(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
  if (base_ != nullptr) [[unlikely]] {
    const auto* patched = patched_entry(lower_wire, hash);
    if (patched == nullptr) return base_->lookup(lower_wire, hash);
    const PatchEntry& entry = **patched;
    return NameLookup{entry.owns ? &entry.node : nullptr, entry.exists, entry.has_descendants};
  }
  std::size_t nodes = nodes_.size();
  auto found = index_.find(hash, [&](std::uint32_t value) {
    if (value >= nodes) return same_name(empty_non_terminals_[value - nodes], lower_wire);
    return owns_name(nodes_[value], lower_wire);
  });
  if (!found) return {};
  NameLookup result;
  result.exists = true;
  if (*found >= nodes) {
    result.has_descendants = true;
  } else {
    result.node = &nodes_[*found];
    result.has_descendants = result.node->has_descendants;
  }
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
  std::vector<std::pair<Name, const Node*>> sorted_nodes;
  sorted_nodes.reserve(node_count_);
  for_each_node([&](const Node& node) { sorted_nodes.emplace_back(owner(node), &node); });
  std::sort(sorted_nodes.begin(), sorted_nodes.end(),
            [](const auto& a, const auto& b) { return a.first.canonical_compare(b.first) < 0; });
  std::vector<dns::ResourceRecord> out;
  out.reserve(record_count_);
  for (const auto& [owner, node] : sorted_nodes) {
    std::vector<const RRset*> sorted;
    for (const auto& rrset : node->rrsets()) sorted.push_back(&rrset);
    std::sort(sorted.begin(), sorted.end(), [](const RRset* a, const RRset* b) { return a->type < b->type; });
    for (const RRset* rrset : sorted) {
      std::vector<dns::Rdata> rdatas = rrset->rdatas.to_vector();
      std::sort(rdatas.begin(), rdatas.end(), [&](const dns::Rdata& a, const dns::Rdata& b) {
        return dns::rdata_canonical(rrset->type, a) < dns::rdata_canonical(rrset->type, b);
      });
      for (auto& rdata : rdatas) {
        out.push_back(dns::ResourceRecord{owner, rrset->type, dns::RRClass::IN, rrset->ttl, std::move(rdata)});
      }
    }
  }
  return out;
}

std::size_t Zone::patch_limit(std::size_t base_names) {
  double two_thirds = std::cbrt(static_cast<double>(base_names));
  return std::max<std::size_t>(256, static_cast<std::size_t>(3.0 * two_thirds * two_thirds));
}

namespace {

// How many names the newer layer holds before it is folded into the older: about the square
// root of the older's limit, so a write copies a few dozen entries and a fold happens once
// in as many writes.
std::size_t newer_limit(std::size_t limit) {
  return std::max<std::size_t>(16, static_cast<std::size_t>(std::sqrt(static_cast<double>(limit))));
}

const std::shared_ptr<const PatchLayer>& empty_layer() {
  static const auto empty = std::make_shared<const PatchLayer>();
  return empty;
}

}  // namespace

const std::shared_ptr<const PatchEntry>* Zone::patched_entry(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
  if (base_ == nullptr) return nullptr;
  if (const auto* entry = newer_->find(lower_wire, hash)) return entry;
  return older_->find(lower_wire, hash);
}

std::size_t Zone::patch_size() const { return base_ == nullptr ? 0 : newer_->entries.size() + older_->entries.size(); }

const void* Zone::older_layer() const { return older_.get(); }

void Zone::for_each_patched(
    int layer, const std::function<void(std::span<const std::uint8_t> wire, const Node* node, bool exists)>& visit) const {
  if (base_ == nullptr) return;
  for (const auto& entry : (layer == 0 ? newer_ : older_)->entries) {
    visit(entry->wire, entry->owns ? &entry->node : nullptr, entry->exists);
  }
}

void Zone::for_each_node(const std::function<void(const Node&)>& visit) const {
  if (base_ == nullptr) {
    for (const auto& node : nodes_) visit(node);
    return;
  }
  for (const auto& node : base_->nodes_) {
    LowerName lower(owner_wire(node).all());
    if (patched_entry(lower.all(), hash_lower_wire(lower.all())) == nullptr) visit(node);
  }
  for (const auto& entry : older_->entries) {
    if (entry->owns && newer_->find(entry->lower, entry->hash) == nullptr) visit(entry->node);
  }
  for (const auto& entry : newer_->entries) {
    if (entry->owns) visit(entry->node);
  }
}

std::vector<Name> Zone::empty_non_terminals() const {
  if (base_ == nullptr) return empty_non_terminals_;
  std::vector<Name> out;
  for (const auto& name : base_->empty_non_terminals_) {
    LowerName lower(name);
    if (patched_entry(lower.all(), hash_lower_wire(lower.all())) == nullptr) out.push_back(name);
  }
  for (const auto& entry : older_->entries) {
    if (entry->exists && !entry->owns && newer_->find(entry->lower, entry->hash) == nullptr) {
      out.push_back(*Name::from_uncompressed(entry->wire));
    }
  }
  for (const auto& entry : newer_->entries) {
    if (entry->exists && !entry->owns) out.push_back(*Name::from_uncompressed(entry->wire));
  }
  return out;
}

namespace {

// The entry for a changed owner: its records grouped into RRsets as Zone::build groups them
// (first appearance, lowest TTL, duplicates dropped), laid out in the entry's own blocks.
base::Result<std::shared_ptr<PatchEntry>> owner_entry(const Zone& zone, const OwnerChange& change, const OrderPolicy& order) {
  auto entry = std::make_shared<PatchEntry>();
  const Name& owner = change.owner;
  if (!owner.is_subdomain_of(zone.origin())) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("{} is outside the zone {}", owner.to_text(), zone.origin().to_text()));
  }
  struct Group {
    RRType type;
    std::uint32_t ttl;
    std::vector<const dns::Rdata*> rdatas;
  };
  std::vector<Group> groups;
  std::size_t bytes = 0;
  for (const auto& record : change.records) {
    if (!(record.owner == owner)) {
      return make_error(ErrorCode::kInvalidArgument, fmt::format("{} is not the changed owner {}", record.owner.to_text(), owner.to_text()));
    }
    if (dns::is_meta_type(record.type)) {
      return make_error(ErrorCode::kInvalidArgument, fmt::format("{} has meta type {}", owner.to_text(), dns::type_to_text(record.type)));
    }
    if (record.rdata.size() > 0xFFFF) {
      return make_error(ErrorCode::kInvalidArgument, fmt::format("{} {} has rdata longer than 65535 bytes", owner.to_text(),
                                                                 dns::type_to_text(record.type)));
    }
    auto group = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.type == record.type; });
    if (group == groups.end()) group = groups.insert(groups.end(), Group{record.type, record.ttl, {}});
    group->ttl = std::min(group->ttl, record.ttl);
    bool duplicate = std::any_of(group->rdatas.begin(), group->rdatas.end(), [&](const dns::Rdata* kept) {
      return dns::rdata_canonical_equal(record.type, *kept, record.rdata);
    });
    if (duplicate) continue;
    if (group->rdatas.size() == 0xFFFF) {
      return make_error(ErrorCode::kInvalidArgument, fmt::format("{} {} has more than 65535 records", owner.to_text(),
                                                                 dns::type_to_text(record.type)));
    }
    group->rdatas.push_back(&record.rdata);
    bytes += 2 + record.rdata.size();
  }
  entry->wire = owner.wire();
  LowerName lower(owner);
  entry->lower.assign(lower.all().begin(), lower.all().end());
  entry->hash = hash_lower_wire(entry->lower);
  entry->rdata.reserve(bytes);
  entry->rrsets.reserve(groups.size());
  RRsetOrder rrset_order = order_for(order, owner);
  for (const auto& group : groups) {
    std::size_t offset = entry->rdata.size();
    for (const dns::Rdata* rdata : group.rdatas) RdataList::append_item(entry->rdata, *rdata);
    RRset& rrset = entry->rrsets.emplace_back(group.type, group.ttl);
    rrset.rdatas = RdataList::borrowed(entry->rdata.data() + offset, static_cast<std::uint16_t>(group.rdatas.size()));
    rrset.order = rrset_order;
    rrset.plain = rrset.order == RRsetOrder::kFixed && holds_no_name(rrset.type);
    entry->records += group.rdatas.size();
  }
  entry->owns = !entry->rrsets.empty();
  entry->node.name_at = entry->wire.data();  // the whole name; the node reads the part below the origin
  entry->node.name_size = static_cast<std::uint8_t>(entry->wire.size() - zone.origin().wire().size());
  entry->node.set_rrsets(entry->rrsets);
  return entry;
}

}  // namespace

Result<std::shared_ptr<const Zone>> Zone::patch(const std::shared_ptr<const Zone>& current,
                                                const std::vector<OwnerChange>& changes,
                                                const std::function<bool(const Name&)>& names_below,
                                                const OrderPolicy& order) {
  const Zone& base = current->base_ != nullptr ? *current->base_ : *current;
  std::size_t limit = patch_limit(base.node_count_ + base.empty_non_terminals_.size());
  if (current->patch_size() + changes.size() > limit) return std::shared_ptr<const Zone>();
  std::shared_ptr<Zone> zone(new Zone());
  zone->origin_ = current->origin_;
  zone->origin_lower_ = current->origin_lower_;
  zone->negative_mode_ = current->negative_mode_;
  zone->base_ = current->base_ != nullptr ? current->base_ : current;
  zone->has_cuts_ = current->has_cuts_;
  zone->has_dnames_ = current->has_dnames_;
  zone->has_wildcards_ = current->has_wildcards_;
  zone->node_count_ = current->node_count_;
  zone->record_count_ = current->record_count_;
  std::size_t origin_labels = zone->origin_.label_count();

  // The entries of this write, by lowercase name: changed owners first, then the names above
  // them whose "something lies below" changed.
  std::vector<std::shared_ptr<const PatchEntry>> fresh;
  auto fresh_has = [&](std::span<const std::uint8_t> lower) {
    return std::any_of(fresh.begin(), fresh.end(), [&](const auto& entry) { return same_bytes(entry->lower, lower); });
  };
  for (const auto& change : changes) {
    auto made = owner_entry(*zone, change, order);
    if (!made) return made.error();
    auto& entry = **made;
    if (fresh_has(entry.lower)) continue;
    LowerName lower(change.owner);
    NameLookup before = current->lookup(lower.all());
    bool apex = lower.label_count == origin_labels;
    // A cut or a DNAME that comes or goes changes how every name below it is answered.
    if (is_cut(before.node, apex) || has_dname(before.node) || is_cut(&entry.node, apex) || has_dname(&entry.node)) {
      return std::shared_ptr<const Zone>();
    }
    entry.has_descendants = names_below(change.owner);
    entry.exists = entry.owns || entry.has_descendants;
    entry.node.has_descendants = entry.has_descendants;
    entry.node.delegated = zone->has_cuts_ && current->find_delegation(change.owner) != nullptr;
    zone->record_count_ += entry.records;
    zone->record_count_ -= records_in(before.node);
    if (entry.owns && before.node == nullptr) ++zone->node_count_;
    if (!entry.owns && before.node != nullptr) --zone->node_count_;
    zone->has_wildcards_ = zone->has_wildcards_ || (entry.owns && change.owner.is_wildcard());
    fresh.push_back(std::move(*made));
  }
  std::size_t owners = fresh.size();
  for (std::size_t i = 0; i < owners; ++i) {
    LowerName lower(std::span<const std::uint8_t>(fresh[i]->wire));
    for (std::size_t labels = lower.label_count - 1; labels >= origin_labels && labels < lower.label_count; --labels) {
      auto ancestor = lower.suffix(labels);
      if (fresh_has(ancestor)) break;  // a changed owner (or already walked): its own entry is right
      Name name = *Name::from_uncompressed(ancestor);
      bool below = names_below(name);
      NameLookup before = current->lookup(ancestor);
      if (before.has_descendants == below) break;  // and so for every name above it
      auto entry = std::make_shared<PatchEntry>();
      entry->lower.assign(ancestor.begin(), ancestor.end());
      entry->hash = hash_lower_wire(ancestor);
      entry->has_descendants = below;
      if (before.node != nullptr) {
        entry->node = *before.node;  // the same RRsets, in the base or in the entry that held them
        auto whole = current->owner_wire(*before.node);
        entry->wire.assign(whole.all().begin(), whole.all().end());
        entry->node.name_at = entry->wire.data();
        // Keep alive the entry whose blocks hold the RRsets (none: they are the base's). An
        // entry that itself only copied a node holds none, so it is skipped: a name whose
        // descendants come and go does not chain every copy it ever had.
        if (const auto* held = current->patched_entry(ancestor, entry->hash)) {
          bool copy_only = (*held)->rrsets.empty();
          entry->shares = copy_only ? (*held)->shares : *held;
        }
        entry->node.has_descendants = below;
        entry->owns = true;
      } else {
        entry->wire = name.wire();
      }
      entry->exists = entry->owns || below;
      fresh.push_back(std::move(entry));
    }
  }
  // The newer layer: the current one's entries for names this write left alone, then this
  // write's. Once it outgrows its limit it is folded into the older layer, which the zones
  // in between share.
  const auto& current_newer = current->base_ != nullptr ? current->newer_->entries : empty_layer()->entries;
  std::vector<std::shared_ptr<const PatchEntry>> newer;
  newer.reserve(current_newer.size() + fresh.size());
  for (const auto& entry : current_newer) {
    if (!fresh_has(entry->lower)) newer.push_back(entry);
  }
  for (auto& entry : fresh) newer.push_back(std::move(entry));
  zone->newer_ = std::make_shared<const PatchLayer>(std::move(newer));
  zone->older_ = current->base_ != nullptr ? current->older_ : empty_layer();
  if (zone->newer_->entries.size() > newer_limit(limit)) {
    std::vector<std::shared_ptr<const PatchEntry>> older;
    older.reserve(zone->older_->entries.size() + zone->newer_->entries.size());
    for (const auto& entry : zone->older_->entries) {
      if (zone->newer_->find(entry->lower, entry->hash) == nullptr) older.push_back(entry);
    }
    for (const auto& entry : zone->newer_->entries) older.push_back(entry);
    if (older.size() > limit) return std::shared_ptr<const Zone>();
    zone->older_ = std::make_shared<const PatchLayer>(std::move(older));
    zone->newer_ = empty_layer();
  }

  LowerName origin_lower(zone->origin_);
  if (auto set = zone->set_apex(zone->lookup(origin_lower.all()).node); !set) return set.error();
  return std::shared_ptr<const Zone>(std::move(zone));
}

}  // namespace cutover::zone
