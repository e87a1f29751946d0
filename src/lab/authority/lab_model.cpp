// LabModel: rebuild-and-publish on every change, outage lookup, query counting.
#include "lab/authority/lab_model.h"

#include <sstream>

#include <fmt/format.h>

#include "base/clock.h"
#include "dns/rdata.h"
#include "zone/master_parser.h"

namespace cutover::lab {
namespace {

using base::ErrorCode;
using base::make_error;

std::string key_of(const dns::Name& name) { return name.lowercased().to_text(); }

std::vector<dns::TextToken> split_tokens(const std::string& text) {
  std::vector<dns::TextToken> tokens;
  std::istringstream in(text);
  std::string word;
  while (in >> word) tokens.push_back(dns::TextToken{word, false, 1, 1});
  return tokens;
}

base::Result<dns::ResourceRecord> make_record(const dns::Name& owner, dns::RRType type, std::uint32_t ttl,
                                              const std::string& text, const dns::Name& origin) {
  auto tokens = split_tokens(text);
  auto rdata = dns::rdata_from_text(type, tokens, origin);
  if (!rdata) {
    return make_error(ErrorCode::kInvalidArgument,
                      fmt::format("{} {} \"{}\": {}", owner.to_text(), dns::type_to_text(type), text, rdata.error().message));
  }
  return dns::ResourceRecord{owner, type, dns::RRClass::IN, ttl, std::move(*rdata)};
}

// A zone put whole from a file changes only by putting it whole again: an RRset edit would
// leave its signatures behind (E14's zones are signed offline).
base::Status refuse_file_zone(const LabZone& lab_zone) {
  if (!lab_zone.file_records) return {};
  return make_error(ErrorCode::kInvalidArgument, "lab zone " + lab_zone.origin.to_text() +
                                                     " was put whole from a zone file: put the whole file again");
}

}  // namespace

std::optional<Outage> outage_from_text(std::string_view text) {
  if (text == "none") return Outage::kNone;
  if (text == "drop") return Outage::kDrop;
  if (text == "refuse") return Outage::kRefuse;
  if (text == "servfail") return Outage::kServfail;
  return std::nullopt;
}

std::string outage_to_text(Outage outage) {
  switch (outage) {
    case Outage::kNone: return "none";
    case Outage::kDrop: return "drop";
    case Outage::kRefuse: return "refuse";
    case Outage::kServfail: return "servfail";
  }
  return "none";
}

Outage OutageTable::lookup(const dns::Name& qname) const {
  if (names.empty() && zones.empty()) return Outage::kNone;
  dns::Name name = qname.lowercased();
  if (auto it = names.find(name.to_text()); it != names.end()) return it->second;
  for (dns::Name walk = name;; walk = walk.parent()) {
    if (auto it = zones.find(walk.to_text()); it != zones.end()) return it->second;
    if (walk.is_root()) return Outage::kNone;
  }
}

base::Result<std::shared_ptr<const zone::Zone>> build_lab_zone(const LabZone& lab_zone) {
  const dns::Name& origin = lab_zone.origin;
  if (lab_zone.file_records) return zone::Zone::build(origin, *lab_zone.file_records, {}, lab_zone.negative);
  std::vector<dns::ResourceRecord> records;
  auto mname = origin.prepend("ns");
  auto rname = origin.prepend("hostmaster");
  if (!mname || !rname) return make_error(ErrorCode::kInvalidArgument, "zone origin too long: " + origin.to_text());
  dns::SoaFields soa{*mname, *rname, lab_zone.serial, 3600, 600, 86400, lab_zone.minimum};
  records.push_back(dns::ResourceRecord{origin, dns::RRType::SOA, dns::RRClass::IN, lab_zone.soa_ttl, dns::encode_soa(soa)});
  bool apex_ns = false;
  for (const auto& [key, rrset] : lab_zone.rrsets) {
    auto owner = dns::Name::from_text(key.first);
    if (!owner) return owner.error();
    if (*owner == origin && key.second == dns::RRType::NS) apex_ns = true;
    for (const auto& text : rrset.data) {
      auto record = make_record(*owner, key.second, rrset.ttl, text, origin);
      if (!record) return record.error();
      records.push_back(std::move(*record));
    }
  }
  if (!apex_ns) {
    auto ns = make_record(origin, dns::RRType::NS, lab_zone.soa_ttl, mname->to_text(), origin);
    if (!ns) return ns.error();
    records.push_back(std::move(*ns));
  }
  return zone::Zone::build(origin, records, {}, lab_zone.negative);
}

LabModel::LabModel(Publish publish)
    : publish_(std::move(publish)),
      outages_(std::make_shared<const OutageTable>()),
      published_(std::make_shared<const Published>()) {}

std::shared_ptr<const auth::ZoneSet> LabModel::ns_in_authority_zones(const dns::Name& qname) const {
  auto published = published_.load();
  for (dns::Name walk = qname.lowercased();; walk = walk.parent()) {
    if (auto it = published->ns_in_authority.find(walk.to_text()); it != published->ns_in_authority.end()) {
      return it->second ? published->zones : nullptr;
    }
    if (walk.is_root()) return nullptr;
  }
}

void LabModel::publish_all() {
  std::lock_guard lock(mutex_);
  (void)rebuild_locked();
}

LabZone* LabModel::find_zone_locked(const dns::Name& name) {
  for (dns::Name walk = name.lowercased();; walk = walk.parent()) {
    if (auto it = zones_.find(walk.to_text()); it != zones_.end()) return &it->second;
    if (walk.is_root()) return nullptr;
  }
}

base::Result<std::int64_t> LabModel::rebuild_locked() {
  std::vector<std::shared_ptr<const zone::Zone>> built;
  auto published = std::make_shared<Published>();
  for (auto& [key, lab_zone] : zones_) {
    auto zone = build_lab_zone(lab_zone);
    if (!zone) return zone.error();
    built.push_back(std::move(*zone));
    published->ns_in_authority[key] = lab_zone.ns_in_authority;
  }
  published->zones = std::make_shared<const auth::ZoneSet>(std::move(built));
  published_.store(published);
  publish_(published->zones);
  return base::monotonic_ns();
}

void LabModel::store_outages_locked() { outages_.store(std::make_shared<const OutageTable>(outage_state_)); }

base::Result<std::int64_t> LabModel::put_zone(const dns::Name& origin, std::uint32_t soa_ttl, std::uint32_t minimum,
                                              zone::NegativeTtlMode negative, bool ns_in_authority) {
  std::lock_guard lock(mutex_);
  auto existing = zones_.find(key_of(origin));
  LabZone candidate = existing != zones_.end() && !existing->second.file_records ? existing->second : LabZone{};
  candidate.origin = origin.lowercased();
  candidate.soa_ttl = soa_ttl;
  candidate.minimum = minimum;
  candidate.negative = negative;
  candidate.ns_in_authority = ns_in_authority;
  ++candidate.serial;
  auto built = build_lab_zone(candidate);
  if (!built) return built.error();
  zones_[key_of(origin)] = std::move(candidate);
  return rebuild_locked();
}

base::Result<std::int64_t> LabModel::put_zone_file(const dns::Name& origin, const std::string& text) {
  // No $INCLUDE: text from the API never reads the authority's files.
  zone::ParseLimits limits;
  limits.max_include_depth = 0;
  zone::ParseResult parsed = zone::parse_master_text(origin, text, "zone file for " + origin.to_text(), limits);
  for (const auto& diagnostic : parsed.diagnostics) {
    if (diagnostic.severity == zone::Severity::kError) {
      return make_error(ErrorCode::kInvalidArgument, diagnostic.to_string());
    }
  }
  LabZone candidate;
  candidate.origin = origin.lowercased();
  candidate.file_records.emplace();
  for (auto& record : parsed.records) candidate.file_records->push_back(std::move(record.record));
  auto built = build_lab_zone(candidate);
  if (!built) return built.error();
  std::lock_guard lock(mutex_);
  zones_[key_of(origin)] = std::move(candidate);
  return rebuild_locked();
}

base::Result<std::int64_t> LabModel::delete_zone(const dns::Name& origin) {
  std::lock_guard lock(mutex_);
  if (zones_.erase(key_of(origin)) == 0) return make_error(ErrorCode::kNotFound, "no lab zone " + origin.to_text());
  return rebuild_locked();
}

base::Result<std::int64_t> LabModel::put_rrset(const dns::Name& owner, dns::RRType type, const LabRRset& rrset) {
  std::lock_guard lock(mutex_);
  LabZone* lab_zone = find_zone_locked(owner);
  if (lab_zone == nullptr) return make_error(ErrorCode::kNotFound, "no lab zone holds " + owner.to_text());
  if (auto refused = refuse_file_zone(*lab_zone); !refused) return refused.error();
  if (type == dns::RRType::SOA) return make_error(ErrorCode::kInvalidArgument, "set the SOA through the zone");
  if (rrset.data.empty()) return make_error(ErrorCode::kInvalidArgument, "an RRset needs at least one record");
  LabZone candidate = *lab_zone;
  candidate.rrsets[{key_of(owner), type}] = rrset;
  ++candidate.serial;
  auto built = build_lab_zone(candidate);
  if (!built) return built.error();
  *lab_zone = std::move(candidate);
  return rebuild_locked();
}

base::Result<std::int64_t> LabModel::delete_rrset(const dns::Name& owner, std::optional<dns::RRType> type) {
  std::lock_guard lock(mutex_);
  LabZone* lab_zone = find_zone_locked(owner);
  if (lab_zone == nullptr) return make_error(ErrorCode::kNotFound, "no lab zone holds " + owner.to_text());
  if (auto refused = refuse_file_zone(*lab_zone); !refused) return refused.error();
  std::string key = key_of(owner);
  std::size_t removed = 0;
  for (auto it = lab_zone->rrsets.begin(); it != lab_zone->rrsets.end();) {
    if (it->first.first == key && (!type || it->first.second == *type)) {
      it = lab_zone->rrsets.erase(it);
      ++removed;
    } else {
      ++it;
    }
  }
  if (removed == 0) return make_error(ErrorCode::kNotFound, "nothing to delete at " + owner.to_text());
  ++lab_zone->serial;
  return rebuild_locked();
}

base::Result<std::int64_t> LabModel::set_name_outage(const dns::Name& name, Outage outage) {
  std::lock_guard lock(mutex_);
  if (outage == Outage::kNone) {
    outage_state_.names.erase(key_of(name));
  } else {
    outage_state_.names[key_of(name)] = outage;
  }
  store_outages_locked();
  return base::monotonic_ns();
}

base::Result<std::int64_t> LabModel::set_zone_outage(const dns::Name& origin, Outage outage) {
  std::lock_guard lock(mutex_);
  if (zones_.find(key_of(origin)) == zones_.end()) return make_error(ErrorCode::kNotFound, "no lab zone " + origin.to_text());
  if (outage == Outage::kNone) {
    outage_state_.zones.erase(key_of(origin));
  } else {
    outage_state_.zones[key_of(origin)] = outage;
  }
  store_outages_locked();
  return base::monotonic_ns();
}

void LabModel::count_query(const dns::Name& qname, dns::RRType type) {
  std::lock_guard lock(mutex_);
  ++counts_[{key_of(qname), type}];
}

std::vector<QueryCount> LabModel::counts() const {
  std::lock_guard lock(mutex_);
  std::vector<QueryCount> out;
  for (const auto& [key, count] : counts_) out.push_back({key.first, dns::type_to_text(key.second), count});
  return out;
}

}  // namespace cutover::lab
