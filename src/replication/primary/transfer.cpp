// AXFR and IXFR record sequences and their packing into messages.
#include "replication/primary/transfer.h"

#include "store/serial.h"

namespace cutover::replication {
namespace {

// Room is left for the TSIG (RFC 8945) the responder signs each message with when the zone
// has a transfer-key: owner name (at most 255), fixed fields, algorithm name and a 64-byte
// MAC stay under 512 bytes.
constexpr std::size_t kMaxMessage = 65535 - 512;

dns::ResourceRecord soa_record(const zone::Zone& zone) {
  return dns::ResourceRecord{zone.origin(), dns::RRType::SOA, dns::RRClass::IN, zone.soa().ttl,
                             dns::Rdata(zone.soa().rdatas.front().begin(), zone.soa().rdatas.front().end())};
}

dns::MessageWriter start_message(const dns::Message& query, dns::Rcode rcode) {
  dns::MessageWriter writer(kMaxMessage);
  dns::Header header;
  header.id = query.header.id;
  header.qr = true;
  header.aa = rcode == dns::Rcode::kNoError;
  header.opcode = query.header.opcode;
  header.rcode = static_cast<std::uint8_t>(rcode);
  writer.set_header(header);
  for (const auto& question : query.questions) writer.add_question(question);
  return writer;
}

}  // namespace

std::vector<dns::ResourceRecord> axfr_records(const zone::Zone& zone) {
  std::vector<dns::ResourceRecord> records;
  records.push_back(soa_record(zone));
  for (auto& record : zone.records()) {
    if (record.type != dns::RRType::SOA) records.push_back(std::move(record));
  }
  records.push_back(soa_record(zone));
  return records;
}

std::optional<std::vector<dns::ResourceRecord>> ixfr_records(const zone::Zone& zone, std::uint32_t client_serial,
                                                             store::Store* store) {
  std::uint32_t current = zone.soa_fields().serial;
  if (!store::serial_greater(current, client_serial)) return std::vector<dns::ResourceRecord>{soa_record(zone)};
  if (store == nullptr) return std::nullopt;
  auto entries = store->entries_after(zone.origin(), 0);
  if (!entries) return std::nullopt;
  std::size_t start = entries->size();
  for (std::size_t i = 0; i < entries->size(); ++i) {
    if ((*entries)[i].serial_before == client_serial) {
      start = i;
      break;
    }
  }
  if (start == entries->size() || entries->back().serial != current) return std::nullopt;
  std::vector<dns::ResourceRecord> records{soa_record(zone)};
  std::uint32_t expected = client_serial;
  for (std::size_t i = start; i < entries->size(); ++i) {
    const auto& entry = (*entries)[i];
    const auto& delta = entry.delta;
    // Each step must chain and carry both SOAs (old first in removed, new first in added).
    if (entry.serial_before != expected || delta.removed.empty() || delta.added.empty() ||
        delta.removed.front().type != dns::RRType::SOA || delta.added.front().type != dns::RRType::SOA) {
      return std::nullopt;
    }
    records.insert(records.end(), delta.removed.begin(), delta.removed.end());
    records.insert(records.end(), delta.added.begin(), delta.added.end());
    expected = entry.serial;
  }
  records.push_back(soa_record(zone));
  return records;
}

Messages pack_messages(const dns::Message& query, const std::vector<dns::ResourceRecord>& records, dns::Rcode rcode) {
  Messages messages;
  dns::MessageWriter writer = start_message(query, rcode);
  bool has_records = false;
  for (const auto& record : records) {
    if (writer.add_record(dns::Section::kAnswer, record)) {
      has_records = true;
      continue;
    }
    messages.push_back(writer.finish());
    writer = start_message(query, rcode);
    has_records = writer.add_record(dns::Section::kAnswer, record);  // one RR always fits in 64 KiB
  }
  if (has_records || messages.empty()) messages.push_back(writer.finish());
  return messages;
}

}  // namespace cutover::replication
