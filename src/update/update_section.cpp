// Update section prescan (§3.4.1.3) and processing (§3.4.2) into edits.
#include "update/update_section.h"

#include <fmt/format.h>

namespace cutover::update {
namespace {

using dns::RRClass;
using dns::RRType;
using store::Edit;
using store::PreconditionFailure;

PreconditionFailure fail(dns::Rcode rcode, const dns::ResourceRecord& record, std::string_view why) {
  return PreconditionFailure{rcode, fmt::format("update {} {} {}: {}", record.owner.to_text(),
                                                dns::class_to_text(record.klass), dns::type_to_text(record.type), why)};
}

}  // namespace

std::optional<PreconditionFailure> prescan_updates(const UpdateMessage& message) {
  for (const auto& record : message.updates) {
    if (!record.owner.is_subdomain_of(message.zone)) return fail(dns::Rcode::kNotZone, record, "outside the zone");
    if (record.klass == message.zone_class) {
      if (dns::is_meta_type(record.type)) return fail(dns::Rcode::kFormErr, record, "meta type");
      if (record.rdata.empty()) return fail(dns::Rcode::kFormErr, record, "no rdata to add");
    } else if (record.klass == RRClass::ANY) {
      if (record.ttl != 0 || !record.rdata.empty()) return fail(dns::Rcode::kFormErr, record, "must have TTL 0, no rdata");
      if (dns::is_meta_type(record.type) && record.type != RRType::ANY) return fail(dns::Rcode::kFormErr, record, "meta type");
    } else if (record.klass == RRClass::NONE) {
      if (record.ttl != 0) return fail(dns::Rcode::kFormErr, record, "TTL must be 0");
      if (dns::is_meta_type(record.type)) return fail(dns::Rcode::kFormErr, record, "meta type");
      if (record.rdata.empty()) return fail(dns::Rcode::kFormErr, record, "no rdata to delete");
    } else {
      return fail(dns::Rcode::kFormErr, record, "class is neither the zone's, ANY nor NONE");
    }
  }
  return std::nullopt;
}

std::vector<Edit> update_edits(const UpdateMessage& message) {
  std::vector<Edit> edits;
  for (const auto& record : message.updates) {
    Edit edit;
    edit.owner = record.owner;
    edit.type = record.type;
    if (record.klass == RRClass::ANY) {
      edit.op = record.type == RRType::ANY ? Edit::Op::kDeleteName : Edit::Op::kDeleteRRset;
    } else {
      edit.op = record.klass == RRClass::NONE ? Edit::Op::kDeleteRecord : Edit::Op::kAddRecord;
      edit.ttl = record.ttl;
      edit.rdatas.push_back(record.rdata);
    }
    edits.push_back(std::move(edit));
  }
  return edits;
}

}  // namespace cutover::update
