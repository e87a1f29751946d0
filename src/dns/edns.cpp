// EDNS0 OPT record encoding and decoding (RFC 6891 §6.1.2-6.1.3).
#include <fmt/format.h>

#include "dns/message.h"

namespace cutover::dns {

namespace {
constexpr std::size_t kOptFixedSize = 11;  // root owner, type, class, ttl, rdlength
constexpr std::uint32_t kDnssecOkBit = 0x8000;
}  // namespace

std::size_t edns_wire_size(const Edns& edns) {
  std::size_t size = kOptFixedSize;
  for (const EdnsOption& option : edns.options) size += 4 + option.data.size();
  return size;
}

void write_opt_record(const Edns& edns, base::ByteWriter& out) {
  out.write_u8(0);
  out.write_u16(static_cast<std::uint16_t>(RRType::OPT));
  out.write_u16(edns.udp_size);
  std::uint32_t flags = (edns.dnssec_ok ? kDnssecOkBit : 0) | (edns.other_flags & ~kDnssecOkBit & 0xFFFF);
  out.write_u32((std::uint32_t{edns.extended_rcode} << 24) | (std::uint32_t{edns.version} << 16) | flags);
  std::size_t length_at = out.size();
  out.write_u16(0);
  for (const EdnsOption& option : edns.options) {
    out.write_u16(option.code);
    out.write_u16(static_cast<std::uint16_t>(option.data.size()));
    out.write_bytes(option.data);
  }
  out.patch_u16(length_at, static_cast<std::uint16_t>(out.size() - length_at - 2));
}

base::Result<Edns> edns_from_opt_record(const ResourceRecord& opt) {
  Edns edns;
  edns.udp_size = static_cast<std::uint16_t>(opt.klass);
  edns.extended_rcode = static_cast<std::uint8_t>(opt.ttl >> 24);
  edns.version = static_cast<std::uint8_t>(opt.ttl >> 16);
  edns.dnssec_ok = (opt.ttl & kDnssecOkBit) != 0;
  edns.other_flags = static_cast<std::uint16_t>(opt.ttl & 0x7FFF);
  base::ByteReader reader(opt.rdata);
  while (!reader.at_end()) {
    EdnsOption option;
    std::uint16_t length = 0;
    std::span<const std::uint8_t> data;
    if (!reader.read_u16(option.code) || !reader.read_u16(length) || !reader.read_bytes(length, data)) {
      return base::make_error(base::ErrorCode::kMalformed, "truncated EDNS option", reader.pos());
    }
    option.data.assign(data.begin(), data.end());
    edns.options.push_back(std::move(option));
  }
  return edns;
}

}  // namespace cutover::dns
