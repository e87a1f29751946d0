// TSIG rdata codec and location in a message.
#include "tsig/record.h"

#include "base/bytes.h"
#include "dns/message.h"

namespace cutover::tsig {
namespace {

using base::ErrorCode;
using base::make_error;

constexpr std::uint16_t kClassAny = static_cast<std::uint16_t>(dns::RRClass::ANY);

base::Error malformed(const char* what, std::size_t where) { return make_error(ErrorCode::kMalformed, what, where); }

void write_u48(base::ByteWriter& out, std::uint64_t value) {
  out.write_u16(static_cast<std::uint16_t>(value >> 32));
  out.write_u32(static_cast<std::uint32_t>(value));
}

std::vector<std::uint8_t> encode_rdata(const TsigRecord& record) {
  std::vector<std::uint8_t> rdata;
  base::ByteWriter out(rdata);
  out.write_bytes(record.algorithm.wire());  // never compressed (RFC 8945 §4.2)
  write_u48(out, record.time_signed);
  out.write_u16(record.fudge);
  out.write_u16(static_cast<std::uint16_t>(record.mac.size()));
  out.write_bytes(record.mac);
  out.write_u16(record.original_id);
  out.write_u16(record.error);
  out.write_u16(static_cast<std::uint16_t>(record.other.size()));
  out.write_bytes(record.other);
  return rdata;
}

base::Result<TsigRecord> decode_rdata(const dns::Name& owner, std::span<const std::uint8_t> rdata, std::size_t base) {
  base::ByteReader in(rdata);
  auto algorithm = dns::Name::from_wire(in);  // inside the rdata alone, a pointer cannot resolve
  if (!algorithm) return malformed("TSIG algorithm name", base);
  TsigRecord record;
  record.key_name = owner;
  record.algorithm = std::move(*algorithm);
  std::uint16_t time_high = 0;
  std::uint32_t time_low = 0;
  std::uint16_t mac_size = 0;
  std::span<const std::uint8_t> mac;
  std::uint16_t other_size = 0;
  std::span<const std::uint8_t> other;
  if (!in.read_u16(time_high) || !in.read_u32(time_low) || !in.read_u16(record.fudge) || !in.read_u16(mac_size) ||
      !in.read_bytes(mac_size, mac) || !in.read_u16(record.original_id) || !in.read_u16(record.error) ||
      !in.read_u16(other_size) || !in.read_bytes(other_size, other) || !in.at_end()) {
    return malformed("TSIG rdata does not match its length", base + in.pos());
  }
  record.time_signed = (std::uint64_t{time_high} << 32) | time_low;
  record.mac.assign(mac.begin(), mac.end());
  record.other.assign(other.begin(), other.end());
  return record;
}

}  // namespace

void append_tsig(std::vector<std::uint8_t>& message, const TsigRecord& record) {
  std::vector<std::uint8_t> rdata = encode_rdata(record);
  base::ByteWriter out(message);
  out.write_bytes(record.key_name.wire());
  out.write_u16(static_cast<std::uint16_t>(kTsigType));
  out.write_u16(kClassAny);
  out.write_u32(0);
  out.write_u16(static_cast<std::uint16_t>(rdata.size()));
  out.write_bytes(rdata);
  auto arcount = static_cast<std::uint16_t>((message[10] << 8) | message[11]);
  out.patch_u16(10, static_cast<std::uint16_t>(arcount + 1));
}

base::Result<std::optional<LocatedTsig>> locate_tsig(std::span<const std::uint8_t> message) {
  auto header = dns::parse_header(message);
  if (!header) return header.error();
  base::ByteReader in(message, dns::kHeaderSize);
  for (std::uint16_t i = 0; i < header->qdcount; ++i) {
    if (!dns::Name::from_wire(in) || !in.skip(4)) return malformed("question", in.pos());
  }
  std::size_t records = std::size_t{header->ancount} + header->nscount + header->arcount;
  std::optional<LocatedTsig> found;
  for (std::size_t i = 0; i < records; ++i) {
    std::size_t start = in.pos();
    auto owner = dns::Name::from_wire(in);
    std::uint16_t type = 0, klass = 0, rdlength = 0;
    std::uint32_t ttl = 0;
    std::span<const std::uint8_t> rdata;
    if (!owner || !in.read_u16(type) || !in.read_u16(klass) || !in.read_u32(ttl) || !in.read_u16(rdlength) ||
        !in.read_bytes(rdlength, rdata)) {
      return malformed("resource record", start);
    }
    if (type != static_cast<std::uint16_t>(kTsigType)) continue;
    if (i + 1 != records || header->arcount == 0) return malformed("TSIG is not the last additional record", start);
    if (klass != kClassAny || ttl != 0) return malformed("TSIG must have class ANY and TTL 0", start);
    auto record = decode_rdata(*owner, rdata, in.pos() - rdlength);
    if (!record) return record.error();
    found = LocatedTsig{start, std::move(*record)};
  }
  if (!in.at_end()) return malformed("trailing bytes", in.pos());
  return found;
}

std::vector<std::uint8_t> strip_tsig(std::span<const std::uint8_t> message, const LocatedTsig& tsig) {
  std::vector<std::uint8_t> stripped(message.begin(), message.begin() + static_cast<std::ptrdiff_t>(tsig.offset));
  base::ByteWriter out(stripped);
  out.patch_u16(0, tsig.record.original_id);
  auto arcount = static_cast<std::uint16_t>((stripped[10] << 8) | stripped[11]);
  out.patch_u16(10, static_cast<std::uint16_t>(arcount - 1));
  return stripped;
}

}  // namespace cutover::tsig
