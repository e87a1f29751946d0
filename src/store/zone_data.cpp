// ZoneData editing, the RFC 2136 §3.4.2 safety rules, and deltas between states.
#include "store/zone_data.h"

#include <algorithm>

#include <fmt/format.h>

#include "store/serial.h"

namespace cutover::store {

using base::ErrorCode;
using base::make_error;
using dns::Name;
using dns::RRType;

namespace {

bool same_rdata(RRType type, const dns::Rdata& a, const dns::Rdata& b) {
  return dns::rdata_canonical(type, a) == dns::rdata_canonical(type, b);
}

bool contains(RRType type, const std::vector<dns::Rdata>& list, const dns::Rdata& rdata) {
  return std::any_of(list.begin(), list.end(), [&](const dns::Rdata& item) { return same_rdata(type, item, rdata); });
}

dns::ResourceRecord make_record(const Name& owner, RRType type, std::uint32_t ttl, const dns::Rdata& rdata) {
  dns::ResourceRecord record;
  record.owner = owner;
  record.type = type;
  record.ttl = ttl;
  record.rdata = rdata;
  return record;
}

// CNAME may share its owner only with DNSSEC records (RFC 2181 §10.1, RFC 4035 §2.5).
bool coexists_with_cname(RRType type) {
  return type == RRType::CNAME || type == RRType::RRSIG || type == RRType::NSEC;
}

}  // namespace

ZoneData ZoneData::from_zone(const zone::Zone& zone) { return from_records(zone.origin(), zone.records()); }

ZoneData ZoneData::from_records(const Name& origin, const std::vector<dns::ResourceRecord>& records) {
  ZoneData data(origin);
  for (const auto& record : records) data.add_rdata(record.owner, record.type, record.ttl, record.rdata);
  return data;
}

const RRsetData* ZoneData::find(const Name& owner, RRType type) const {
  auto node = nodes_.find(owner);
  if (node == nodes_.end()) return nullptr;
  auto rrset = node->second.find(type);
  return rrset == node->second.end() ? nullptr : &rrset->second;
}

base::Result<dns::SoaFields> ZoneData::soa() const {
  const RRsetData* rrset = find(origin_, RRType::SOA);
  if (rrset == nullptr || rrset->rdatas.size() != 1) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("zone {} has no single SOA", origin_.to_text()));
  }
  return dns::parse_soa(rrset->rdatas.front());
}

std::uint32_t ZoneData::soa_ttl() const {
  const RRsetData* rrset = find(origin_, RRType::SOA);
  return rrset == nullptr ? 0 : rrset->ttl;
}

void ZoneData::set_soa(const dns::SoaFields& soa, std::uint32_t ttl) {
  nodes_[origin_][RRType::SOA] = RRsetData{ttl, {dns::encode_soa(soa)}};
}

void ZoneData::add_rdata(const Name& owner, RRType type, std::uint32_t ttl, const dns::Rdata& rdata) {
  auto [it, inserted] = nodes_[owner].try_emplace(type);
  RRsetData& rrset = it->second;
  // RFC 2181 §5.2: one TTL per RRset; the newest write sets it (as BIND does for UPDATE).
  rrset.ttl = ttl;
  if (!contains(type, rrset.rdatas, rdata)) rrset.rdatas.push_back(rdata);
}

void ZoneData::remove_rdata(const Name& owner, RRType type, const dns::Rdata& rdata) {
  auto node = nodes_.find(owner);
  if (node == nodes_.end()) return;
  auto rrset = node->second.find(type);
  if (rrset == node->second.end()) return;
  auto& list = rrset->second.rdatas;
  list.erase(std::remove_if(list.begin(), list.end(), [&](const dns::Rdata& item) { return same_rdata(type, item, rdata); }),
             list.end());
  if (list.empty()) node->second.erase(rrset);
  erase_if_empty(owner);
}

void ZoneData::erase_if_empty(const Name& owner) {
  auto node = nodes_.find(owner);
  if (node != nodes_.end() && node->second.empty()) nodes_.erase(node);
}

base::Status ZoneData::apply(const Edit& edit) {
  if (!edit.owner.is_subdomain_of(origin_)) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} is outside the zone {}", edit.owner.to_text(), origin_.to_text()));
  }
  bool by_type = edit.op != Edit::Op::kDeleteName;
  if (by_type && (dns::is_meta_type(edit.type) || edit.type == RRType::OPT)) {
    return make_error(ErrorCode::kInvalidArgument, fmt::format("{} is a meta type", dns::type_to_text(edit.type)));
  }
  bool needs_rdata = edit.op == Edit::Op::kAddRecord || edit.op == Edit::Op::kDeleteRecord ||
                     edit.op == Edit::Op::kReplaceRRset;
  if (needs_rdata && edit.rdatas.empty()) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} {}: no record data given", edit.owner.to_text(), dns::type_to_text(edit.type)));
  }
  bool apex = edit.owner == origin_;
  auto ignored = [&](std::string_view why) {
    return make_error(ErrorCode::kUnsupported,
                      fmt::format("{} {}: {}", edit.owner.to_text(), dns::type_to_text(edit.type), why));
  };
  if (edit.type == RRType::SOA && by_type) {
    if (!apex) return ignored("a SOA belongs only at the zone apex");
    if (edit.op == Edit::Op::kDeleteRecord || edit.op == Edit::Op::kDeleteRRset) return ignored("the SOA cannot be deleted");
    if (edit.rdatas.size() != 1) return ignored("needs exactly one valid SOA");
    auto added = dns::parse_soa(edit.rdatas.front());
    if (!added) return ignored("needs exactly one valid SOA");
    // RFC 2136 §3.4.2.2: an added SOA whose serial is not greater (RFC 1982) than the zone's
    // is ignored, so a stale or replayed UPDATE cannot move the zone's identity backwards.
    auto current = soa();
    if (edit.op == Edit::Op::kAddRecord && current && !serial_greater(added->serial, current->serial)) {
      return ignored(fmt::format("serial {} is not greater than the zone's serial {}", added->serial, current->serial));
    }
    nodes_[origin_][RRType::SOA] = RRsetData{edit.ttl, {edit.rdatas.front()}};
    return {};
  }
  const NodeData* node = nodes_.count(edit.owner) != 0 ? &nodes_.at(edit.owner) : nullptr;
  bool adding = edit.op == Edit::Op::kAddRecord || edit.op == Edit::Op::kReplaceRRset;
  if (adding && node != nullptr) {
    bool has_cname = node->count(RRType::CNAME) != 0;
    bool has_other = std::any_of(node->begin(), node->end(), [](const auto& entry) { return !coexists_with_cname(entry.first); });
    if (edit.type == RRType::CNAME && has_other) return ignored("a CNAME cannot join other data at its name");
    if (edit.type != RRType::CNAME && !coexists_with_cname(edit.type) && has_cname) {
      return ignored("the name already holds a CNAME");
    }
  }
  if (edit.type == RRType::CNAME && adding && edit.rdatas.size() > 1) return ignored("a CNAME RRset holds one record");
  if (apex && edit.type == RRType::NS && by_type && !adding) {
    const RRsetData* ns = find(origin_, RRType::NS);
    std::size_t left = 0;
    if (ns != nullptr && edit.op == Edit::Op::kDeleteRecord) {
      left = static_cast<std::size_t>(std::count_if(ns->rdatas.begin(), ns->rdatas.end(), [&](const dns::Rdata& r) {
        return !contains(RRType::NS, edit.rdatas, r);
      }));
    }
    if (ns != nullptr && left == 0) return ignored("the apex NS RRset cannot be emptied");
  }
  switch (edit.op) {
    case Edit::Op::kAddRecord:
      for (const auto& rdata : edit.rdatas) add_rdata(edit.owner, edit.type, edit.ttl, rdata);
      break;
    case Edit::Op::kReplaceRRset:
      nodes_[edit.owner].erase(edit.type);
      for (const auto& rdata : edit.rdatas) add_rdata(edit.owner, edit.type, edit.ttl, rdata);
      break;
    case Edit::Op::kDeleteRecord:
      for (const auto& rdata : edit.rdatas) remove_rdata(edit.owner, edit.type, rdata);
      break;
    case Edit::Op::kDeleteRRset:
      if (nodes_.count(edit.owner) != 0) nodes_[edit.owner].erase(edit.type);
      erase_if_empty(edit.owner);
      break;
    case Edit::Op::kDeleteName:
      if (nodes_.count(edit.owner) == 0) break;
      if (apex) {  // RFC 2136 §3.4.2.3: the apex keeps its SOA and NS
        erase_if(nodes_[edit.owner], [](const auto& entry) {
          return entry.first != RRType::SOA && entry.first != RRType::NS;
        });
      } else {
        nodes_.erase(edit.owner);
      }
      break;
  }
  return {};
}

void ZoneData::apply_delta(const Delta& delta) {
  for (const auto& record : delta.removed) {
    if (record.type != RRType::SOA) remove_rdata(record.owner, record.type, record.rdata);
  }
  for (const auto& record : delta.added) {
    if (record.type == RRType::SOA) {
      nodes_[origin_][RRType::SOA] = RRsetData{record.ttl, {record.rdata}};
    } else {
      add_rdata(record.owner, record.type, record.ttl, record.rdata);
    }
  }
}

ZoneData ZoneData::slice(const NameSet& owners) const {
  ZoneData part(origin_);
  for (const auto& owner : owners) {
    auto node = nodes_.find(owner);
    if (node != nodes_.end()) part.nodes_.insert(*node);
  }
  return part;
}

void ZoneData::take_nodes(const ZoneData& from, const NameSet& owners) {
  for (const auto& owner : owners) {
    auto node = from.nodes_.find(owner);
    if (node == from.nodes_.end()) {
      nodes_.erase(owner);
    } else {
      nodes_.insert_or_assign(owner, node->second);
    }
  }
}

NameSet ZoneData::differing_owners(const ZoneData& other) const {
  NameSet names;
  dns::NameCanonicalLess less;
  auto a = nodes_.begin();
  auto b = other.nodes_.begin();
  while (a != nodes_.end() || b != other.nodes_.end()) {
    if (b == other.nodes_.end() || (a != nodes_.end() && less(a->first, b->first))) {
      names.insert(names.end(), (a++)->first);
    } else if (a == nodes_.end() || less(b->first, a->first)) {
      names.insert(names.end(), (b++)->first);
    } else {
      if (!(a->second == b->second)) names.insert(names.end(), a->first);
      ++a;
      ++b;
    }
  }
  return names;
}

NameSet ZoneData::owners() const {
  NameSet names;
  for (const auto& entry : nodes_) names.insert(names.end(), entry.first);
  return names;
}

std::vector<dns::ResourceRecord> ZoneData::records() const {
  std::vector<dns::ResourceRecord> out;
  for (const auto& [owner, node] : nodes_) {
    for (const auto& [type, rrset] : node) {
      for (const auto& rdata : rrset.rdatas) out.push_back(make_record(owner, type, rrset.ttl, rdata));
    }
  }
  return out;
}

base::Result<std::shared_ptr<const zone::Zone>> ZoneData::build(const zone::OrderPolicy& order) const {
  return zone::Zone::build(origin_, records(), order);
}

bool ZoneData::names_below(const dns::Name& name) const {
  // Canonical order puts every name below `name` right after it (RFC 4034 §6.1).
  auto next = nodes_.upper_bound(name);
  return next != nodes_.end() && next->first.is_subdomain_of(name);
}

base::Result<std::shared_ptr<const zone::Zone>> ZoneData::build_from(const std::shared_ptr<const zone::Zone>& current,
                                                                     const NameSet& owners,
                                                                     const zone::OrderPolicy& order) const {
  if (current != nullptr && owners.size() <= zone::Zone::patch_limit(current->node_count())) {
    std::vector<zone::OwnerChange> changes;
    changes.reserve(owners.size());
    for (const auto& owner : owners) {
      auto node = nodes_.find(owner);
      auto& change = changes.emplace_back(zone::OwnerChange{node != nodes_.end() ? node->first : owner, {}});
      if (node == nodes_.end()) continue;
      for (const auto& [type, rrset] : node->second) {
        for (const auto& rdata : rrset.rdatas) change.records.push_back(make_record(node->first, type, rrset.ttl, rdata));
      }
    }
    auto patched = zone::Zone::patch(current, changes, [&](const dns::Name& name) { return names_below(name); }, order);
    if (!patched || *patched != nullptr) return patched;
  }
  return build(order);
}

namespace {

// Appends the records of `from` that are not in `other` (all of them when the TTLs differ).
void missing_records(const ZoneData& from, const ZoneData& other, std::vector<dns::ResourceRecord>& out) {
  for (const auto& [owner, node] : from.nodes()) {
    for (const auto& [type, rrset] : node) {
      const RRsetData* peer = other.find(owner, type);
      bool whole = peer == nullptr || peer->ttl != rrset.ttl;
      for (const auto& rdata : rrset.rdatas) {
        if (whole || !contains(type, peer->rdatas, rdata)) out.push_back(make_record(owner, type, rrset.ttl, rdata));
      }
    }
  }
}

// Moves any SOA to the front, keeping the other records' order.
void soa_first(std::vector<dns::ResourceRecord>& records) {
  std::stable_partition(records.begin(), records.end(), [](const auto& r) { return r.type == RRType::SOA; });
}

}  // namespace

Delta diff(const ZoneData& before, const ZoneData& after) {
  Delta delta;
  missing_records(before, after, delta.removed);
  missing_records(after, before, delta.added);
  soa_first(delta.removed);
  soa_first(delta.added);
  return delta;
}

Delta invert(const Delta& delta) { return Delta{delta.added, delta.removed}; }

}  // namespace cutover::store
