// Zone-cut checks. A name below a DNAME can never be reached (RFC 6672 §2.4), so data
// there is an error; below an NS cut only the glue addresses matter (RFC 1034 §4.2.1),
// so anything else is reported as occluded, as BIND does.
#include "zone/checks_delegation.h"

#include <fmt/format.h>

#include "dns/rdata.h"

namespace cutover::zone {
namespace {

using dns::RRType;

// The topmost record of `type` (delegation NS or DNAME) strictly above `name` and at or
// below the apex; NS at the apex itself is not a cut.
const ParsedRecord* cut_above(const RecordIndex& index, const dns::Name& origin, const dns::Name& name,
                              RRType type) {
  const ParsedRecord* found = nullptr;
  for (dns::Name ancestor = name.parent(); ancestor.is_subdomain_of(origin); ancestor = ancestor.parent()) {
    bool is_apex = ancestor == origin;
    if (type == RRType::NS && is_apex) break;
    if (const ParsedRecord* record = index.first(ancestor, type)) found = record;
    if (is_apex) break;
  }
  return found;
}

// What may sit at a delegation point beside its NS RRset: the parent-side DS and its
// DNSSEC records, and addresses when the name server is named after the cut itself.
bool allowed_at_cut(RRType type) {
  return type == RRType::NS || type == RRType::DS || type == RRType::RRSIG || type == RRType::NSEC ||
         type == RRType::A || type == RRType::AAAA;
}

bool is_address(RRType type) { return type == RRType::A || type == RRType::AAAA; }

void check_glue(const dns::Name& origin, const RecordIndex& index, const ParsedRecord& ns,
                std::vector<Diagnostic>& out) {
  auto target = dns::rdata_target_name(RRType::NS, ns.record.rdata);
  if (!target || !target->is_subdomain_of(origin)) return;
  // Addresses under a sibling delegation count too (sibling glue), as in BIND.
  if (index.has(*target, RRType::A) || index.has(*target, RRType::AAAA)) return;
  out.push_back(Diagnostic{Severity::kWarning, ns.location(),
                           fmt::format("missing glue: the NS target '{}' of '{}' is inside the zone but has no A "
                                       "or AAAA record",
                                       target->to_text(), ns.record.owner.to_text())});
}

}  // namespace

void check_delegations(const dns::Name& origin, const RecordIndex& index, const std::string& file,
                       std::vector<Diagnostic>& out) {
  for (const auto& [owner_name, records] : index.by_owner()) {
    const dns::Name& owner = *owner_name;
    const ParsedRecord* dname = index.has_cuts() ? cut_above(index, origin, owner, RRType::DNAME) : nullptr;
    if (dname != nullptr) {
      out.push_back(Diagnostic{Severity::kError, records.front()->location(),
                               fmt::format("'{}' is below the DNAME at '{}' ({}) and can never be answered",
                                           owner.to_text(), dname->record.owner.to_text(),
                                           line_reference(dname->location(), file))});
      continue;
    }
    const ParsedRecord* cut = index.has_cuts() ? cut_above(index, origin, owner, RRType::NS) : nullptr;
    bool at_cut = index.has_cuts() && !(owner == origin) && index.has(owner, RRType::NS);
    for (const ParsedRecord* record : records) {
      RRType type = record->record.type;
      if (type == RRType::NS && cut == nullptr) check_glue(origin, index, *record, out);
      if (cut != nullptr && !is_address(type)) {
        out.push_back(Diagnostic{Severity::kWarning, record->location(),
                                 fmt::format("occluded: the {} record at '{}' is below the delegation at '{}' ({})",
                                             dns::type_to_text(type), owner.to_text(), cut->record.owner.to_text(),
                                             line_reference(cut->location(), file))});
      } else if (cut == nullptr && at_cut && !allowed_at_cut(type)) {
        out.push_back(Diagnostic{Severity::kWarning, record->location(),
                                 fmt::format("occluded: the {} record at '{}' sits at a delegation point",
                                             dns::type_to_text(type), owner.to_text())});
      }
    }
  }
}

}  // namespace cutover::zone
