// The AXFR/IXFR reply state machine (RFC 5936 §2.2, RFC 1995 §4) and applying its result.
#include "replication/secondary/transfer_reader.h"

#include <algorithm>

#include <fmt/format.h>

#include "dns/rdata.h"

namespace cutover::replication {
namespace {

using base::ErrorCode;
using base::make_error;

base::Result<std::uint32_t> soa_serial(const dns::ResourceRecord& record) {
  auto soa = dns::parse_soa(record.rdata);
  if (!soa) return make_error(ErrorCode::kMalformed, "transfer: undecodable SOA: " + soa.error().message);
  return soa->serial;
}

bool holds(const store::ZoneData& data, const dns::ResourceRecord& record) {
  const store::RRsetData* rrset = data.find(record.owner, record.type);
  if (rrset == nullptr) return false;
  auto wanted = dns::rdata_canonical(record.type, record.rdata);
  return std::any_of(rrset->rdatas.begin(), rrset->rdatas.end(),
                     [&](const dns::Rdata& rdata) { return dns::rdata_canonical(record.type, rdata) == wanted; });
}

}  // namespace

TransferReader::TransferReader(dns::Name origin, dns::RRType type, std::size_t max_bytes)
    : origin_(std::move(origin)), type_(type), max_bytes_(max_bytes) {}

base::Result<bool> TransferReader::add(const dns::Message& reply, std::size_t wire_size) {
  transfer_.bytes += wire_size;
  transfer_.messages += 1;
  if (transfer_.bytes > max_bytes_) {
    return make_error(ErrorCode::kLimit, fmt::format("transfer: more than max-transfer-bytes ({}) after {} messages",
                                                     max_bytes_, transfer_.messages));
  }
  auto rcode = static_cast<dns::Rcode>(reply.header.rcode);
  if (rcode != dns::Rcode::kNoError) {
    return make_error(ErrorCode::kUnsupported, "transfer: the primary answered " + dns::rcode_to_text(rcode));
  }
  if (reply.header.tc) return make_error(ErrorCode::kMalformed, "transfer: truncated reply");
  for (const auto& record : reply.answers) {
    auto done = add_record(record);
    if (!done) return done.error();
    if (*done) return true;  // anything after the closing SOA is ignored (RFC 5936 §2.2)
  }
  // RFC 1995 §4: an IXFR reply holding only the current SOA means "nothing newer".
  if (stage_ == Stage::kSecond && type_ == dns::RRType::IXFR && transfer_.messages == 1) {
    transfer_.kind = TransferKind::kUpToDate;
    transfer_.records.clear();
    stage_ = Stage::kDone;
    return true;
  }
  if (reply.answers.empty()) return make_error(ErrorCode::kMalformed, "transfer: a reply without records");
  return false;
}

base::Result<bool> TransferReader::add_record(const dns::ResourceRecord& record) {
  if (!record.owner.is_subdomain_of(origin_)) {
    return make_error(ErrorCode::kMalformed,
                      fmt::format("transfer: record {} is outside zone {}", record.owner.to_text(), origin_.to_text()));
  }
  bool is_soa = record.type == dns::RRType::SOA;
  if (is_soa && !(record.owner == origin_)) {
    return make_error(ErrorCode::kMalformed, "transfer: SOA below the apex at " + record.owner.to_text());
  }
  switch (stage_) {
    case Stage::kFirstSoa: {
      if (!is_soa) return make_error(ErrorCode::kMalformed, "transfer: the first record is not the zone's SOA");
      auto serial = soa_serial(record);
      if (!serial) return serial.error();
      transfer_.serial = *serial;
      transfer_.records.push_back(record);
      stage_ = Stage::kSecond;
      return false;
    }
    case Stage::kSecond:
      if (!is_soa) {
        transfer_.kind = TransferKind::kFull;
        transfer_.records.push_back(record);
        stage_ = Stage::kFull;
        return false;
      }
      if (type_ == dns::RRType::AXFR) {  // a zone of one SOA: complete
        stage_ = Stage::kDone;
        return true;
      }
      transfer_.kind = TransferKind::kIncremental;
      transfer_.records.clear();
      return add_incremental(record, true);
    case Stage::kFull:
      if (!is_soa) {
        transfer_.records.push_back(record);
        return false;
      }
      if (auto serial = soa_serial(record); !serial || *serial != transfer_.serial) {
        return make_error(ErrorCode::kMalformed, "transfer: the closing SOA differs from the opening one");
      }
      stage_ = Stage::kDone;
      return true;
    default:
      return add_incremental(record, is_soa);
  }
}

// Incremental: (old SOA, removals, new SOA, additions)*, then the new SOA again.
base::Result<bool> TransferReader::add_incremental(const dns::ResourceRecord& record, bool is_soa) {
  if (!is_soa) {
    auto& delta = transfer_.deltas.back();
    (stage_ == Stage::kRemovals ? delta.removed : delta.added).push_back(record);
    return false;
  }
  auto serial = soa_serial(record);
  if (!serial) return serial.error();
  if (stage_ == Stage::kRemovals) {
    transfer_.deltas.back().added.push_back(record);
    stage_ = Stage::kAdditions;
    return false;
  }
  if (stage_ == Stage::kAdditions && *serial == transfer_.serial) {
    stage_ = Stage::kDone;
    return true;
  }
  transfer_.deltas.push_back({{record}, {}});
  stage_ = Stage::kRemovals;
  return false;
}

base::Result<store::ZoneData> apply_transfer(const Transfer& transfer, const store::ZoneData& current) {
  if (transfer.kind == TransferKind::kUpToDate) return current;
  if (transfer.kind == TransferKind::kFull) return store::ZoneData::from_records(current.origin(), transfer.records);
  auto soa = current.soa();
  if (!soa) return soa.error();
  std::uint32_t serial = soa->serial;
  store::ZoneData next = current;
  for (const auto& delta : transfer.deltas) {
    auto from = soa_serial(delta.removed.front());
    auto to = soa_serial(delta.added.front());
    if (!from || !to) return make_error(ErrorCode::kInvalidArgument, "IXFR: undecodable SOA in a delta");
    if (*from != serial) {
      return make_error(ErrorCode::kInvalidArgument,
                        fmt::format("IXFR: a delta starts at serial {}, this copy is at {}", *from, serial));
    }
    // RFC 1995 §4 lists records to delete that the old version held; one we lack means the
    // deltas are not for this copy.
    for (std::size_t i = 1; i < delta.removed.size(); ++i) {
      if (!holds(next, delta.removed[i])) {
        return make_error(ErrorCode::kInvalidArgument,
                          fmt::format("IXFR: deletes {} {} which this copy does not hold", delta.removed[i].owner.to_text(),
                                      dns::type_to_text(delta.removed[i].type)));
      }
    }
    next.apply_delta(delta);
    serial = *to;
  }
  return next;
}

}  // namespace cutover::replication
