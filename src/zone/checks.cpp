// Zone-wide semantic checks: out-of-zone data, the apex SOA and NS, CNAME exclusivity
// (RFC 1034 §3.6.2, RFC 2181 §10.1) and TTLs inside an RRset (RFC 2181 §5.2).
#include "zone/checks.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "dns/rdata.h"
#include "zone/checks_delegation.h"
#include "zone/record_index.h"

namespace cutover::zone {
namespace {

using dns::RRType;

struct Checker {
  const dns::Name& origin;
  const RecordIndex& index;
  const std::string& file;
  std::vector<Diagnostic>& out;

  void report(Severity severity, const SourceLocation& location, std::string message) {
    out.push_back(Diagnostic{severity, location, std::move(message)});
  }
  std::string ref(const ParsedRecord* record) const { return line_reference(record->location(), file); }
};

bool same_rdata(const ParsedRecord* a, const ParsedRecord* b) {
  return a->record.type == b->record.type && dns::rdata_canonical_equal(a->record.type, a->record.rdata, b->record.rdata);
}

// The first record in `records` of `type` whose rdata differs from `first`'s, or nullptr.
const ParsedRecord* second_distinct(const RecordIndex::Records& records, RRType type, const ParsedRecord* first) {
  for (const ParsedRecord* record : records) {
    if (record->record.type == type && !same_rdata(record, first)) return record;
  }
  return nullptr;
}

void check_apex(Checker& c) {
  const ParsedRecord* soa = c.index.first(c.origin, RRType::SOA);
  if (soa == nullptr) {
    c.report(Severity::kError, SourceLocation{c.file, 0, 0},
             fmt::format("no SOA record at the zone apex '{}'", c.origin.to_text()));
  } else if (const auto* extra = second_distinct(c.index.records_of(c.origin), RRType::SOA, soa)) {
    c.report(Severity::kError, extra->location(),
             fmt::format("more than one SOA record at the apex (the first is at {})", c.ref(soa)));
  }
  if (!c.index.has(c.origin, RRType::NS)) {
    c.report(Severity::kError, soa != nullptr ? soa->location() : SourceLocation{c.file, 0, 0},
             fmt::format("no NS records at the zone apex '{}'", c.origin.to_text()));
  }
}

// CNAME may share its name only with the DNSSEC records that sign or deny it.
bool may_accompany_cname(RRType type) {
  return type == RRType::CNAME || type == RRType::RRSIG || type == RRType::NSEC;
}

void check_cname(Checker& c, const dns::Name& owner, const RecordIndex::Records& records) {
  auto found = std::find_if(records.begin(), records.end(),
                            [](const ParsedRecord* r) { return r->record.type == RRType::CNAME; });
  if (found == records.end()) return;
  const ParsedRecord* cname = *found;
  if (const auto* extra = second_distinct(records, RRType::CNAME, cname)) {
    c.report(Severity::kError, extra->location(),
             fmt::format("more than one CNAME at '{}' (the first is at {})", owner.to_text(), c.ref(cname)));
  }
  auto other = std::find_if(records.begin(), records.end(),
                            [](const ParsedRecord* r) { return !may_accompany_cname(r->record.type); });
  if (other == records.end()) return;
  // Blame whichever of the two came second in the file.
  const ParsedRecord* later = std::max(cname, *other);
  const ParsedRecord* earlier = std::min(cname, *other);
  c.report(Severity::kError, later->location(),
           fmt::format("CNAME and other data at '{}': {} here and {} at {}", owner.to_text(),
                       dns::type_to_text(later->record.type), dns::type_to_text(earlier->record.type),
                       c.ref(earlier)));
}

void check_ttls(Checker& c, const RecordIndex::Records& records) {
  if (records.size() < 2) return;  // most owners; spares the maps below
  std::map<RRType, const ParsedRecord*> first_of_type;
  std::map<RRType, bool> reported;
  for (const ParsedRecord* record : records) {
    RRType type = record->record.type;
    // RRSIGs at one name cover different RRsets and legitimately carry their TTLs.
    if (type == RRType::RRSIG) continue;
    auto [entry, inserted] = first_of_type.emplace(type, record);
    const ParsedRecord* first = entry->second;
    if (inserted || record->record.ttl == first->record.ttl || reported[type]) continue;
    reported[type] = true;
    std::uint32_t lowest = record->record.ttl;
    for (const ParsedRecord* member : records) {
      if (member->record.type == type) lowest = std::min(lowest, member->record.ttl);
    }
    c.report(Severity::kWarning, record->location(),
             fmt::format("TTL {} differs from TTL {} of the same {} RRset at {}; the lowest, {}, is used "
                         "(RFC 2181 §5.2)",
                         record->record.ttl, first->record.ttl, dns::type_to_text(type), c.ref(first), lowest));
  }
}

}  // namespace

std::vector<Diagnostic> check_zone_records(const dns::Name& origin, std::span<const ParsedRecord> records,
                                           const std::string& file) {
  return check_zone_records(origin, records, RecordIndex(origin, records), file);
}

std::vector<Diagnostic> check_zone_records(const dns::Name& origin, std::span<const ParsedRecord> records,
                                           const RecordIndex& index, const std::string& file) {
  std::vector<Diagnostic> out;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const ParsedRecord& record = records[i];
    const dns::Name& owner = record.record.owner;
    if (!index.in_zone(i)) {
      out.push_back(Diagnostic{Severity::kError, record.location(),
                               fmt::format("'{}' is outside the zone '{}'", owner.to_text(), origin.to_text())});
    } else if (record.record.type == RRType::SOA && !(owner == origin)) {
      out.push_back(Diagnostic{Severity::kError, record.location(),
                               fmt::format("SOA record at '{}' is not at the zone apex '{}'", owner.to_text(),
                                           origin.to_text())});
    }
  }
  Checker checker{origin, index, file, out};
  check_apex(checker);
  for (const auto& owner : index.by_owner()) {
    check_cname(checker, *owner.name, owner.records);
    check_ttls(checker, owner.records);
  }
  check_delegations(origin, index, file, out);
  // Report in source order so a reader can walk each file top to bottom.
  std::stable_sort(out.begin(), out.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.location.file, a.location.line, a.location.column) <
           std::tie(b.location.file, b.location.line, b.location.column);
  });
  return out;
}

}  // namespace cutover::zone
