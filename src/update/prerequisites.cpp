// Prerequisite checks of RFC 2136 §3.2.1-3.2.5.
#include "update/prerequisites.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace cutover::update {
namespace {

using dns::RRClass;
using dns::RRType;
using store::PreconditionFailure;

PreconditionFailure fail(dns::Rcode rcode, const dns::ResourceRecord& record, std::string_view why) {
  return PreconditionFailure{rcode, fmt::format("prerequisite {} {} {}: {}", record.owner.to_text(),
                                                dns::class_to_text(record.klass), dns::type_to_text(record.type), why)};
}

std::vector<dns::Rdata> canonical_sorted(RRType type, const std::vector<dns::Rdata>& rdatas) {
  std::vector<dns::Rdata> out;
  for (const auto& rdata : rdatas) out.push_back(dns::rdata_canonical(type, rdata));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::optional<PreconditionFailure> check_prerequisite_format(const UpdateMessage& message) {
  for (const auto& record : message.prerequisites) {
    if (record.ttl != 0) return fail(dns::Rcode::kFormErr, record, "TTL must be 0");
    if (!record.owner.is_subdomain_of(message.zone)) return fail(dns::Rcode::kNotZone, record, "outside the zone");
    if (record.klass == RRClass::ANY || record.klass == RRClass::NONE) {
      if (!record.rdata.empty()) return fail(dns::Rcode::kFormErr, record, "must have no rdata");
      if (dns::is_meta_type(record.type) && record.type != RRType::ANY) return fail(dns::Rcode::kFormErr, record, "meta type");
    } else if (record.klass == message.zone_class) {
      if (dns::is_meta_type(record.type)) return fail(dns::Rcode::kFormErr, record, "meta type");
    } else {
      return fail(dns::Rcode::kFormErr, record, "class is neither the zone's, ANY nor NONE");
    }
  }
  return std::nullopt;
}

std::optional<PreconditionFailure> evaluate_prerequisites(const UpdateMessage& message, const store::ZoneData& zone) {
  // §3.2.3: "RRset exists (value dependent)" compares whole RRsets, so gather them first.
  // Keyed by the lowercased owner's wire form (names compare case-insensitively) and type.
  using RRsetKey = std::pair<std::vector<std::uint8_t>, RRType>;
  std::map<RRsetKey, std::vector<dns::Rdata>> expected;
  std::map<RRsetKey, const dns::ResourceRecord*> first_of;
  for (const auto& record : message.prerequisites) {
    bool in_use = zone.has_name(record.owner);
    bool exists = record.type != RRType::ANY && zone.find(record.owner, record.type) != nullptr;
    if (record.klass == RRClass::ANY) {
      if (record.type == RRType::ANY && !in_use) return fail(dns::Rcode::kNxDomain, record, "name is not in use");
      if (record.type != RRType::ANY && !exists) return fail(dns::Rcode::kNxRrset, record, "RRset does not exist");
    } else if (record.klass == RRClass::NONE) {
      if (record.type == RRType::ANY && in_use) return fail(dns::Rcode::kYxDomain, record, "name is in use");
      if (record.type != RRType::ANY && exists) return fail(dns::Rcode::kYxRrset, record, "RRset exists");
    } else {
      RRsetKey key{record.owner.lowercased().wire(), record.type};
      expected[key].push_back(record.rdata);
      first_of.try_emplace(key, &record);
    }
  }
  for (const auto& [key, rdatas] : expected) {
    const dns::ResourceRecord& first = *first_of.at(key);
    const store::RRsetData* rrset = zone.find(first.owner, key.second);
    if (rrset == nullptr || canonical_sorted(key.second, rrset->rdatas) != canonical_sorted(key.second, rdatas)) {
      return fail(dns::Rcode::kNxRrset, first, "RRset differs from the one required");
    }
  }
  return std::nullopt;
}

}  // namespace cutover::update
