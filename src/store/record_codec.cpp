// Journal record lists: encoding and bounds-checked decoding.
#include "store/record_codec.h"

namespace cutover::store {

std::vector<std::uint8_t> encode_records(const std::vector<dns::ResourceRecord>& records) {
  std::vector<std::uint8_t> out;
  base::ByteWriter writer(out);
  for (const auto& record : records) {
    writer.write_bytes(record.owner.wire());
    writer.write_u16(static_cast<std::uint16_t>(record.type));
    writer.write_u16(static_cast<std::uint16_t>(record.klass));
    writer.write_u32(record.ttl);
    writer.write_u16(static_cast<std::uint16_t>(record.rdata.size()));
    writer.write_bytes(record.rdata);
  }
  return out;
}

base::Result<std::vector<dns::ResourceRecord>> decode_records(std::span<const std::uint8_t> bytes) {
  std::vector<dns::ResourceRecord> out;
  base::ByteReader reader(bytes);
  while (!reader.at_end()) {
    auto owner = dns::Name::from_wire(reader);
    if (!owner) return owner.error();
    std::uint16_t type = 0;
    std::uint16_t klass = 0;
    std::uint32_t ttl = 0;
    std::uint16_t length = 0;
    std::span<const std::uint8_t> rdata;
    if (!reader.read_u16(type) || !reader.read_u16(klass) || !reader.read_u32(ttl) || !reader.read_u16(length) ||
        !reader.read_bytes(length, rdata)) {
      return base::make_error(base::ErrorCode::kMalformed, "journal record list is truncated", reader.pos());
    }
    dns::ResourceRecord record;
    record.owner = std::move(*owner);
    record.type = static_cast<dns::RRType>(type);
    record.klass = static_cast<dns::RRClass>(klass);
    record.ttl = ttl;
    record.rdata.assign(rdata.begin(), rdata.end());
    out.push_back(std::move(record));
  }
  return out;
}

}  // namespace cutover::store
