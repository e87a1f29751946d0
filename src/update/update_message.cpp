// Wire reader for UPDATE messages and their replies.
#include "update/update_message.h"

#include "dns/edns_options.h"

namespace cutover::update {
namespace {

using base::ErrorCode;
using base::make_error;

base::Result<dns::ResourceRecord> read_record(base::ByteReader& in) {
  std::size_t start = in.pos();
  auto owner = dns::Name::from_wire(in);
  std::uint16_t type = 0, klass = 0, rdlength = 0;
  std::uint32_t ttl = 0;
  if (!owner || !in.read_u16(type) || !in.read_u16(klass) || !in.read_u32(ttl) || !in.read_u16(rdlength)) {
    return make_error(ErrorCode::kMalformed, "truncated resource record", start);
  }
  dns::ResourceRecord record;
  record.owner = std::move(*owner);
  record.type = static_cast<dns::RRType>(type);
  record.klass = static_cast<dns::RRClass>(klass);
  record.ttl = ttl;
  if (rdlength == 0) return record;  // "delete" and "exists" forms carry no rdata (§2.4, §2.5)
  auto rdata = dns::rdata_from_wire(record.type, in, rdlength);
  if (!rdata) return rdata.error();
  record.rdata = std::move(*rdata);
  return record;
}

base::Status read_section(base::ByteReader& in, std::uint16_t count, std::vector<dns::ResourceRecord>& out) {
  for (std::uint16_t i = 0; i < count; ++i) {
    auto record = read_record(in);
    if (!record) return record.error();
    out.push_back(std::move(*record));
  }
  return {};
}

}  // namespace

bool is_update_request(std::span<const std::uint8_t> wire) {
  auto header = dns::parse_header(wire);
  return header && !header->qr && header->opcode == dns::Opcode::kUpdate;
}

base::Result<UpdateMessage> parse_update(std::span<const std::uint8_t> wire) {
  auto header = dns::parse_header(wire);
  if (!header) return header.error();
  UpdateMessage message;
  message.header = *header;
  if (header->qdcount != 1) return make_error(ErrorCode::kMalformed, "ZOCOUNT must be 1");
  base::ByteReader in(wire, dns::kHeaderSize);
  auto zone = dns::Name::from_wire(in);
  std::uint16_t type = 0, klass = 0;
  if (!zone || !in.read_u16(type) || !in.read_u16(klass)) return make_error(ErrorCode::kMalformed, "zone section");
  if (type != static_cast<std::uint16_t>(dns::RRType::SOA)) return make_error(ErrorCode::kMalformed, "ZTYPE must be SOA");
  message.zone = std::move(*zone);
  message.zone_class = static_cast<dns::RRClass>(klass);
  std::vector<dns::ResourceRecord> additional;
  for (auto [count, section] : {std::pair{header->ancount, &message.prerequisites},
                                std::pair{header->nscount, &message.updates}, std::pair{header->arcount, &additional}}) {
    if (auto read = read_section(in, count, *section); !read) return read.error();
  }
  if (!in.at_end()) return make_error(ErrorCode::kMalformed, "trailing bytes", in.pos());
  for (const auto& record : additional) {
    if (record.type != dns::RRType::OPT) continue;
    auto edns = dns::edns_from_opt_record(record);
    if (!edns) return edns.error();
    message.edns = std::move(*edns);
  }
  return message;
}

std::vector<std::uint8_t> update_response(const dns::Header& request, const dns::Name* zone, dns::RRClass zone_class,
                                          dns::Rcode rcode, const dns::Edns* edns, std::string_view reason) {
  dns::Message response;
  response.header.id = request.id;
  response.header.qr = true;
  response.header.opcode = request.opcode;
  response.header.rcode = static_cast<std::uint8_t>(rcode);
  if (zone != nullptr) response.questions.push_back(dns::Question{*zone, dns::RRType::SOA, zone_class});
  if (edns != nullptr) {
    dns::Edns reply;
    reply.dnssec_ok = edns->dnssec_ok;
    if (rcode == dns::Rcode::kRefused && !reason.empty()) {
      dns::add_extended_error(reply, dns::ExtendedError::kProhibited, reason);
    } else if (rcode == dns::Rcode::kNotAuth && !reason.empty()) {
      dns::add_extended_error(reply, dns::ExtendedError::kNotAuthoritative, reason);
    }
    response.edns = std::move(reply);
  }
  return dns::encode_message(response);
}

}  // namespace cutover::update
