// Strict DNS message parser: every read is bounds-checked and any structural problem
// (truncation, trailing bytes, misplaced or repeated OPT) rejects the whole message.
#include <fmt/format.h>

#include "dns/message.h"

namespace cutover::dns {
namespace {

using base::ErrorCode;
using base::make_error;
using base::Result;

constexpr std::size_t kMinQuestionSize = 5;  // root name, type, class
constexpr std::size_t kMinRecordSize = 11;   // root name, type, class, ttl, rdlength

base::Error truncated(std::size_t where, const char* what) {
  return make_error(ErrorCode::kMalformed, fmt::format("message truncated in {}", what), where);
}

Result<Question> read_question(base::ByteReader& reader) {
  auto name = Name::from_wire(reader);
  if (!name) return name.error();
  std::uint16_t type = 0;
  std::uint16_t klass = 0;
  if (!reader.read_u16(type) || !reader.read_u16(klass)) return truncated(reader.pos(), "question");
  return Question{std::move(*name), static_cast<RRType>(type), static_cast<RRClass>(klass)};
}

Result<ResourceRecord> read_record(base::ByteReader& reader) {
  auto owner = Name::from_wire(reader);
  if (!owner) return owner.error();
  std::uint16_t type = 0;
  std::uint16_t klass = 0;
  std::uint16_t rdlength = 0;
  ResourceRecord record;
  if (!reader.read_u16(type) || !reader.read_u16(klass) || !reader.read_u32(record.ttl) ||
      !reader.read_u16(rdlength)) {
    return truncated(reader.pos(), "resource record");
  }
  record.owner = std::move(*owner);
  record.type = static_cast<RRType>(type);
  record.klass = static_cast<RRClass>(klass);
  // RFC 2136 §2.5: update prerequisites and deletions carry empty rdata for any type.
  bool empty_update = rdlength == 0 && (record.klass == RRClass::ANY || record.klass == RRClass::NONE);
  if (!empty_update) {
    auto rdata = rdata_from_wire(record.type, reader, rdlength);
    if (!rdata) return rdata.error();
    record.rdata = std::move(*rdata);
  }
  return record;
}

base::Status read_section(base::ByteReader& reader, std::uint16_t count, Section section, Message& message) {
  auto& records = section == Section::kAnswer      ? message.answers
                  : section == Section::kAuthority ? message.authorities
                                                   : message.additionals;
  for (std::uint16_t i = 0; i < count; ++i) {
    std::size_t start = reader.pos();
    auto record = read_record(reader);
    if (!record) return record.error();
    if (record->type != RRType::OPT) {
      records.push_back(std::move(*record));
      continue;
    }
    if (section != Section::kAdditional) {
      return make_error(ErrorCode::kMalformed, "OPT outside the additional section", start);
    }
    if (message.edns) return make_error(ErrorCode::kMalformed, "more than one OPT record", start);
    if (!record->owner.is_root()) return make_error(ErrorCode::kMalformed, "OPT owner is not the root", start);
    auto edns = edns_from_opt_record(*record);
    if (!edns) return edns.error();
    message.edns = std::move(*edns);
  }
  return {};
}

}  // namespace

Result<Header> parse_header(std::span<const std::uint8_t> wire) {
  base::ByteReader reader(wire);
  Header header;
  std::uint16_t flags = 0;
  if (!reader.read_u16(header.id) || !reader.read_u16(flags) || !reader.read_u16(header.qdcount) ||
      !reader.read_u16(header.ancount) || !reader.read_u16(header.nscount) || !reader.read_u16(header.arcount)) {
    return truncated(0, "header");
  }
  header.qr = (flags & 0x8000) != 0;
  header.opcode = static_cast<Opcode>((flags >> 11) & 0x0F);
  header.aa = (flags & 0x0400) != 0;
  header.tc = (flags & 0x0200) != 0;
  header.rd = (flags & 0x0100) != 0;
  header.ra = (flags & 0x0080) != 0;
  header.z = (flags & 0x0040) != 0;
  header.ad = (flags & 0x0020) != 0;
  header.cd = (flags & 0x0010) != 0;
  header.rcode = static_cast<std::uint8_t>(flags & 0x0F);
  return header;
}

Result<Message> parse_message(std::span<const std::uint8_t> wire) {
  auto header = parse_header(wire);
  if (!header) return header.error();
  Message message;
  message.header = *header;
  base::ByteReader reader(wire, kHeaderSize);
  // Counts that cannot fit in the bytes are rejected before anything is allocated for them.
  std::size_t record_count = std::size_t{header->ancount} + header->nscount + header->arcount;
  if (header->qdcount * kMinQuestionSize + record_count * kMinRecordSize > reader.remaining()) {
    return truncated(kHeaderSize, "counts larger than the message");
  }
  message.questions.reserve(header->qdcount);
  for (std::uint16_t i = 0; i < header->qdcount; ++i) {
    auto question = read_question(reader);
    if (!question) return question.error();
    message.questions.push_back(std::move(*question));
  }
  for (auto [count, section] : {std::pair{header->ancount, Section::kAnswer},
                                std::pair{header->nscount, Section::kAuthority},
                                std::pair{header->arcount, Section::kAdditional}}) {
    if (base::Status status = read_section(reader, count, section, message); !status) return status.error();
  }
  if (!reader.at_end()) return make_error(ErrorCode::kMalformed, "trailing bytes after the message", reader.pos());
  return message;
}

}  // namespace cutover::dns
