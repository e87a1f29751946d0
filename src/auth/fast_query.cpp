// Reading the question of a plain query in place, for the answer fast path.
#include "auth/fast_query.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "base/load.h"
#include "zone/name_index.h"

namespace cutover::auth {
namespace {

using dns::RRType;

// Qtypes the general path treats specially: DS (answered from the parent side of a cut),
// the types that pull in additional-section addresses (NS, MX, SRV) and the meta types
// (dns::is_meta_type: 0, OPT, 128 to 255, among them ANY and the transfers). One bit test
// for the types below 64, where five compares cost every query about ten instructions;
// FastQueryTest.LeavesEveryTypeTheGeneralPathOwnsToIt checks all 65,536 against the list.
constexpr std::uint64_t kGeneralBelow64 = [] {
  std::uint64_t bits = 0;
  for (RRType type : {RRType{0}, RRType::NS, RRType::MX, RRType::SRV, RRType::OPT, RRType::DS}) {
    bits |= std::uint64_t{1} << static_cast<unsigned>(type);
  }
  return bits;
}();

bool needs_general_path(std::uint16_t qtype) {
  if (qtype < 64) return ((kGeneralBelow64 >> qtype) & 1) != 0;
  return qtype >= 128 && qtype <= 255;
}

// Eight bytes read little-endian (byte k at bits 8k): one load where the host is.
std::uint64_t le_word(const std::uint8_t* p) {
  if constexpr (std::endian::native == std::endian::little) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    return word;
  } else {
    return base::load_le64(p);
  }
}

}  // namespace

bool read_fast_query(std::span<const std::uint8_t> packet, Transport transport, FastQuery& query) {
  const std::uint8_t* p = packet.data();
  std::size_t size = packet.size();
  if (size < dns::kHeaderSize + 5 || (p[2] & 0xF8) != 0) return false;  // QR and opcode
  // QDCOUNT 1, ANCOUNT and NSCOUNT 0, ARCOUNT 0 or 1: the eight count bytes as one word,
  // read little-endian (byte k at bits 8k), with ARCOUNT's low bit masked off.
  if ((le_word(p + 4) & ~(std::uint64_t{1} << 56)) != std::uint64_t{1} << 8) return false;
  // The next length byte must lie inside the packet and leave room for the root label
  // within the name's 255 bytes: one bound checks both.
  std::size_t limit = std::min<std::size_t>(size, dns::kHeaderSize + dns::Name::kMaxWireLength);
  std::size_t pos = dns::kHeaderSize;
  // The count in a local: a store into label_starts (bytes) may alias any field of `query`
  // as far as the compiler knows, so query.labels would be reloaded and stored per label.
  std::size_t labels = 0;
  for (std::uint8_t length = p[pos]; length != 0; length = p[pos]) {
    std::size_t next = pos + length + 1u;
    if (length > dns::Name::kMaxLabelLength || next >= limit) return false;  // pointer, extended type, too long, truncated
    query.label_starts[labels++] = static_cast<std::uint8_t>(pos - dns::kHeaderSize);
    pos = next;
  }
  query.labels = labels;
  query.name_size = pos + 1 - dns::kHeaderSize;
  query.hash = zone::copy_lower_and_hash(query.lower.data(), p + dns::kHeaderSize, query.name_size, size - dns::kHeaderSize);
  pos += 1;
  if (pos + 4 > size || base::load_u16(p + pos + 2) != static_cast<std::uint16_t>(dns::RRClass::IN)) return false;
  query.qtype = base::load_u16(p + pos);
  if (needs_general_path(query.qtype)) return false;
  query.question_end = pos + 4;
  query.cookie_size = 0;
  query.subnet_size = 0;
  query.subnet_source = 0;  // steering by Client Subnet reads it alone (answer_dynamic's steer)
  query.opt_size = 0;
  if (base::load_u16(p + 10) == 1) {
    const std::uint8_t* opt = p + query.question_end;
    // The root owner (byte 0), TYPE OPT (bytes 1 and 2) and VERSION 0 (byte 6) in one
    // compare of the OPT's first eight bytes (le_word: byte k at bits 8k).
    constexpr std::uint64_t kOptMask = 0xFFull << 48 | 0xFFFFFFull;
    constexpr std::uint64_t kOptHead = std::uint64_t{static_cast<std::uint16_t>(RRType::OPT)} << 16;
    if (query.question_end + kBareOptSize > size || (le_word(opt) & kOptMask) != kOptHead) {
      return false;  // not a version-0 OPT: BADVERS goes the general way
    }
    std::size_t options = base::load_u16(opt + 9);
    if (query.question_end + kBareOptSize + options != size) return false;
    if (options != 0) {
      // One COOKIE option, client cookie alone or with a 16-byte server cookie, or one Client
      // Subnet option of at most an IPv6 address; other options go the general way.
      if (options < 4) return false;
      std::size_t length = options - 4;
      std::uint16_t code = base::load_u16(opt + kBareOptSize);
      if (base::load_u16(opt + kBareOptSize + 2) != length) return false;
      if (code == dns::kCookieOption && (length == dns::kClientCookieSize || length == dns::kCookieReplySize)) {
        query.cookie_at = query.question_end + kBareOptSize + 4;
        query.cookie_size = length;
      } else if (code == dns::kClientSubnetOption && length >= 4 && length <= 4 + 16) {
        query.subnet_at = query.question_end + kBareOptSize + 4;
        query.subnet_size = length;
      } else {
        return false;
      }
    }
    query.edns = true;
    query.opt_size = kBareOptSize;
    query.dnssec_ok = static_cast<std::uint8_t>(opt[7] & 0x80);
  } else if (query.question_end != size) {
    return false;
  } else {
    query.edns = false;
    query.dnssec_ok = 0;
  }
  query.udp = transport == Transport::kUdp;
  if (transport == Transport::kTcp) {
    query.max_size = kMaxFastResponse;  // a longer TCP answer is the general path's
  } else if (query.edns) {
    std::size_t requested = base::load_u16(p + query.question_end + 3);
    query.max_size = std::min<std::size_t>(std::max<std::size_t>(requested, dns::kClassicUdpSize), kMaxUdpPayload);
  } else {
    query.max_size = dns::kClassicUdpSize;
  }
  return true;
}


}  // namespace cutover::auth
