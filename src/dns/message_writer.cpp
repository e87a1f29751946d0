// Name compression and the size-bounded, all-or-nothing message writer (RFC 1035 §4.1.4,
// RFC 2181 §9: an RRset is never split, so a record that does not fit takes its set with it).
#include <cassert>
#include <limits>

#include "dns/message.h"

namespace cutover::dns {
namespace {

constexpr std::size_t kMaxPointerOffset = 0x3FFF;
constexpr std::uint16_t kPointerBits = 0xC000;
constexpr std::size_t kMaxCount = 0xFFFF;

std::uint16_t header_flags(const Header& header) {
  std::uint16_t flags = static_cast<std::uint16_t>((static_cast<unsigned>(header.opcode) & 0x0F) << 11);
  flags |= header.qr ? 0x8000 : 0;
  flags |= header.aa ? 0x0400 : 0;
  flags |= header.tc ? 0x0200 : 0;
  flags |= header.rd ? 0x0100 : 0;
  flags |= header.ra ? 0x0080 : 0;
  flags |= header.z ? 0x0040 : 0;
  flags |= header.ad ? 0x0020 : 0;
  flags |= header.cd ? 0x0010 : 0;
  return static_cast<std::uint16_t>(flags | (header.rcode & 0x0F));
}

std::size_t section_index(Section section) {
  switch (section) {
    case Section::kAnswer: return 1;
    case Section::kAuthority: return 2;
    case Section::kAdditional: return 3;
  }
  return 3;
}

}  // namespace

void NameCompressor::write(const Name& name, base::ByteWriter& out) {
  const auto& wire = name.wire();
  std::size_t pos = 0;
  for (std::size_t labels = 0; wire[pos] != 0; ++labels) {
    Name suffix = name.parent(labels);
    if (auto found = offsets_.find(suffix); found != offsets_.end()) {
      out.write_u16(static_cast<std::uint16_t>(kPointerBits | found->second));
      return;
    }
    if (out.size() <= kMaxPointerOffset) offsets_.emplace(std::move(suffix), static_cast<std::uint16_t>(out.size()));
    out.write_bytes(std::span(wire).subspan(pos, 1u + wire[pos]));
    pos += 1u + wire[pos];
  }
  out.write_u8(0);
}

void NameCompressor::write_uncompressed(const Name& name, base::ByteWriter& out) {
  const auto& wire = name.wire();
  std::size_t pos = 0;
  for (std::size_t labels = 0; wire[pos] != 0; ++labels) {
    std::size_t at = out.size() + pos;
    if (at > kMaxPointerOffset) break;
    offsets_.emplace(name.parent(labels), static_cast<std::uint16_t>(at));  // an earlier copy is kept
    pos += 1u + wire[pos];
  }
  out.write_bytes(wire);
}

void NameCompressor::forget_from(std::size_t size) {
  std::erase_if(offsets_, [size](const auto& entry) { return entry.second >= size; });
}

MessageWriter::MessageWriter(std::size_t max_size) : buffer_(kHeaderSize, 0), max_size_(max_size) {}

void MessageWriter::set_header(const Header& header) { header_ = header; }

void MessageWriter::set_edns(const Edns& edns) {
  edns_ = edns;
  reserved_ = edns_wire_size(edns);
}

void MessageWriter::roll_back(std::size_t size) {
  buffer_.resize(size);
  compressor_.forget_from(size);
}

bool MessageWriter::add_question(const Question& question) {
  assert(current_section_ == 0 && "questions come before every record");
  if (counts_[0] == kMaxCount) return false;
  std::size_t mark = buffer_.size();
  base::ByteWriter out(buffer_);
  compressor_.write(question.name, out);
  out.write_u16(static_cast<std::uint16_t>(question.type));
  out.write_u16(static_cast<std::uint16_t>(question.klass));
  if (buffer_.size() + reserved_ > max_size_) {
    roll_back(mark);
    return false;
  }
  ++counts_[0];
  return true;
}

std::size_t MessageWriter::begin_records(Section section, std::size_t count) const {
  std::size_t index = section_index(section);
  assert(index >= current_section_ && "sections are filled in order");
  return counts_[index] + count > kMaxCount ? kNoRoom : index;
}

bool MessageWriter::append_record(const Name& owner, RRType type, RRClass klass, std::uint32_t ttl,
                                  std::span<const std::uint8_t> rdata, std::size_t mark) {
  base::ByteWriter out(buffer_);
  compressor_.write(owner, out);
  out.write_u16(static_cast<std::uint16_t>(type));
  out.write_u16(static_cast<std::uint16_t>(klass));
  out.write_u32(ttl);
  std::size_t length_at = out.size();
  out.write_u16(0);
  rdata_to_wire(type, rdata, out, compressor_);
  std::size_t length = out.size() - length_at - 2;
  if (length > 0xFFFF || buffer_.size() + reserved_ > max_size_) {
    roll_back(mark);
    return false;
  }
  out.patch_u16(length_at, static_cast<std::uint16_t>(length));
  return true;
}

void MessageWriter::end_records(std::size_t index, std::size_t count) {
  counts_[index] = static_cast<std::uint16_t>(counts_[index] + count);
  current_section_ = index;
}

bool MessageWriter::add_record(Section section, const ResourceRecord& record) {
  return add_rrset(section, record.owner, record.type, record.klass, record.ttl, std::span(&record.rdata, 1));
}

std::vector<std::uint8_t> MessageWriter::finish() {
  base::ByteWriter out(buffer_);
  std::uint16_t additional = counts_[3];
  if (edns_ && additional < kMaxCount) {
    write_opt_record(*edns_, out);
    ++additional;
  }
  out.patch_u16(0, header_.id);
  out.patch_u16(2, header_flags(header_));
  out.patch_u16(4, counts_[0]);
  out.patch_u16(6, counts_[1]);
  out.patch_u16(8, counts_[2]);
  out.patch_u16(10, additional);
  return std::move(buffer_);
}

std::vector<std::uint8_t> encode_message(const Message& message) {
  MessageWriter writer(std::numeric_limits<std::size_t>::max());
  writer.set_header(message.header);
  if (message.edns) writer.set_edns(*message.edns);
  for (const Question& question : message.questions) (void)writer.add_question(question);
  for (auto [section, records] : {std::pair{Section::kAnswer, &message.answers},
                                  std::pair{Section::kAuthority, &message.authorities},
                                  std::pair{Section::kAdditional, &message.additionals}}) {
    for (const ResourceRecord& record : *records) (void)writer.add_record(section, record);
  }
  return writer.finish();
}

}  // namespace cutover::dns
