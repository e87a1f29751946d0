// DNS messages: header, question, resource records and EDNS0 OPT (RFC 1035 §4, RFC 6891),
// a parser that never reads out of bounds, and a writer with name compression and
// all-or-nothing RRset truncation. Values are plain; MessageWriter is not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"
#include "dns/name.h"
#include "dns/rdata.h"
#include "dns/types.h"

namespace cutover::dns {

constexpr std::size_t kHeaderSize = 12;
constexpr std::size_t kClassicUdpSize = 512;

struct Header {
  std::uint16_t id = 0;
  bool qr = false, aa = false, tc = false, rd = false, ra = false, z = false, ad = false, cd = false;
  Opcode opcode = Opcode::kQuery;
  std::uint8_t rcode = 0;  // low four bits; EDNS carries the upper eight
  std::uint16_t qdcount = 0, ancount = 0, nscount = 0, arcount = 0;
};

struct Question {
  Name name;
  RRType type = RRType::A;
  RRClass klass = RRClass::IN;
};

struct ResourceRecord {
  Name owner;
  RRType type = RRType::A;
  RRClass klass = RRClass::IN;
  std::uint32_t ttl = 0;
  Rdata rdata;
};

struct EdnsOption {
  std::uint16_t code = 0;
  std::vector<std::uint8_t> data;
};

struct Edns {
  std::uint16_t udp_size = 1232;
  std::uint8_t extended_rcode = 0;  // upper eight bits of the 12-bit rcode
  std::uint8_t version = 0;
  bool dnssec_ok = false;
  std::uint16_t other_flags = 0;  // the Z bits other than DO
  std::vector<EdnsOption> options;
};

struct Message {
  Header header;
  std::vector<Question> questions;
  std::vector<ResourceRecord> answers;
  std::vector<ResourceRecord> authorities;
  std::vector<ResourceRecord> additionals;  // without the OPT record
  std::optional<Edns> edns;
};

enum class Section { kAnswer, kAuthority, kAdditional };

// Decodes the fixed 12-byte header; fails only when fewer than 12 bytes are given.
base::Result<Header> parse_header(std::span<const std::uint8_t> wire);

// Decodes a whole message. Fails (kMalformed) on truncation, bad names or rdata, trailing
// bytes, more than one OPT, an OPT outside the additional section or not owned by the root.
base::Result<Message> parse_message(std::span<const std::uint8_t> wire);

// Remembers where names were written so later names can point at them (RFC 1035 §4.1.4).
class NameCompressor {
 public:
  // Writes `name`, reusing the longest suffix already written; records new suffixes whose
  // offset fits in 14 bits.
  void write(const Name& name, base::ByteWriter& out);
  // Writes `name` in full (rdata that must not be compressed, RFC 3597 §4, RFC 6672 §2.5) and
  // records its suffixes, so that later names can still point into it.
  void write_uncompressed(const Name& name, base::ByteWriter& out);
  void clear() { offsets_.clear(); }
  // Forgets suffixes recorded at or after `size` (used when a write is rolled back).
  void forget_from(std::size_t size);

 private:
  std::unordered_map<Name, std::uint16_t, NameHash> offsets_;
};

// Builds a response into a buffer no larger than `max_size`. Every add_* either writes all
// of what it was given or nothing (returns false), so an RRset is never split. Space for
// the OPT record is reserved by set_edns() before any RR is added.
class MessageWriter {
 public:
  explicit MessageWriter(std::size_t max_size);

  void set_header(const Header& header);  // counts are filled in by finish()
  void set_edns(const Edns& edns);
  bool add_question(const Question& question);
  // `rdatas`: any sized range of rdatas, each convertible to std::span<const std::uint8_t>
  // (a vector of Rdata, a zone's RdataList). All of them or none are written.
  template <typename Rdatas>
  bool add_rrset(Section section, const Name& owner, RRType type, RRClass klass, std::uint32_t ttl,
                 const Rdatas& rdatas) {
    std::size_t index = begin_records(section, rdatas.size());
    if (index == kNoRoom) return false;
    std::size_t mark = buffer_.size();
    for (const auto& rdata : rdatas) {
      if (!append_record(owner, type, klass, ttl, std::span<const std::uint8_t>(rdata), mark)) return false;
    }
    end_records(index, rdatas.size());
    return true;
  }
  bool add_record(Section section, const ResourceRecord& record);
  // Sections must be filled in order: answer, then authority, then additional.
  std::size_t size() const { return buffer_.size(); }
  std::size_t max_size() const { return max_size_; }

  // Writes the OPT record (if any), patches the counts and returns the message.
  std::vector<std::uint8_t> finish();

 private:
  std::vector<std::uint8_t> buffer_;
  std::size_t max_size_;
  std::size_t reserved_ = 0;  // bytes kept free for the OPT record
  Header header_;
  std::optional<Edns> edns_;
  NameCompressor compressor_;
  std::uint16_t counts_[4] = {0, 0, 0, 0};  // question, answer, authority, additional
  std::size_t current_section_ = 0;         // index into counts_ of the section being filled

  static constexpr std::size_t kNoRoom = static_cast<std::size_t>(-1);
  // add_rrset in three steps: the section's index in counts_ (kNoRoom when `count` more
  // records would overflow it); one record, which on failure rolls the buffer and compressor
  // back to `mark` (where the RRset began); counting them once all are written.
  std::size_t begin_records(Section section, std::size_t count) const;
  bool append_record(const Name& owner, RRType type, RRClass klass, std::uint32_t ttl,
                     std::span<const std::uint8_t> rdata, std::size_t mark);
  void end_records(std::size_t index, std::size_t count);
  void roll_back(std::size_t size);
};

// Encodes a message without size limit (tests, tools, clients). Sections hold at most
// 65535 records each; anything beyond that is left out.
std::vector<std::uint8_t> encode_message(const Message& message);

// EDNS0 OPT record (RFC 6891 §6.1): UDP size in CLASS, extended rcode, version and flags in
// TTL, options as code/length/value in RDATA.
std::size_t edns_wire_size(const Edns& edns);  // whole OPT RR, owner and header included
void write_opt_record(const Edns& edns, base::ByteWriter& out);
// Decodes an OPT record read by parse_message; fails on options that do not fill the rdata.
base::Result<Edns> edns_from_opt_record(const ResourceRecord& opt);

}  // namespace cutover::dns
