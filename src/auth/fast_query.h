// FastQuery: the question of a plain query as the answer fast path reads it, straight from
// the packet, with the name lowercased and hashed on the stack. Reading it apart from
// answering lets a batch read every question first and prefetch where the answers live.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <type_traits>

#include "auth/engine.h"
#include "dns/edns_options.h"
#include "dns/message.h"
#include "dns/name.h"

namespace cutover::auth {

constexpr std::size_t kBareOptSize = 11;  // OPT with root owner, type, class, TTL, empty rdata
// The same holding our COOKIE option: code, length, client cookie, server cookie.
constexpr std::size_t kCookieOptSize = kBareOptSize + 4 + dns::kCookieReplySize;

// The largest response the fast path writes (UDP's is at most kMaxUdpPayload): a TCP answer
// longer than this takes the general path, so each thread's compose buffer stays 4 KiB of
// static TLS, which every thread of the process pays for, not 64 KiB (docs/performance.md,
// "Zone memory").
constexpr std::size_t kMaxFastResponse = 4096;
static_assert(kMaxUdpPayload <= kMaxFastResponse);

// No member has an initialiser: read_fast_query sets every field it and the answer writers
// read (the rest only when its option is there), so a batch's array of 32 questions costs
// nothing to set up, which a batch of one query (a server at a low rate) would pay in full.
struct FastQuery {
  // Filled up to name_size / labels only: left uninitialised, as zeroing them costs more
  // than the rest of reading the question. `lower` has slack for eight-byte lowercasing.
  std::array<std::uint8_t, dns::Name::kMaxWireLength + 8> lower;
  std::size_t name_size;
  std::uint64_t hash;  // zone::hash_lower_wire(name())
  std::array<std::uint8_t, 128> label_starts;
  std::size_t labels;
  std::uint16_t qtype;
  std::size_t question_end;  // offset just past QTYPE/QCLASS
  bool edns;
  // The DO bit in place in the high byte of the OPT's flags (0x80 or 0), for the response's
  // OPT (RFC 3225 §3); set only when `edns`.
  std::uint8_t dnssec_ok;
  std::size_t max_size;  // at most kMaxFastResponse
  bool udp;
  // The OPT's one COOKIE option (RFC 7873 §4), if any: where its data starts in the packet
  // and its length (8: a client cookie alone, 24: with an RFC 9018 server cookie); 0: none.
  std::size_t cookie_at;
  std::size_t cookie_size;
  // The size of the response's OPT (0 without EDNS); with a COOKIE reply, answer_fast_query
  // writes that whole OPT into `cookie_opt`.
  std::size_t opt_size;
  std::array<std::uint8_t, kCookieOptSize> cookie_opt;
  // The OPT's one Client Subnet option (RFC 7871 §6), if any: where its data starts in the
  // packet and its length; 0: none. From a trusted resolver answer_fast_query reads it into
  // `subnet_*` and prepares the response's whole OPT, the option echoed, in `subnet_opt`; the
  // answer sets its SCOPE (`subnet_scope`: the answer writers only read the query, so it is
  // mutable).
  // subnet_size and subnet_source (0: no trusted option with a prefix, steer by the source
  // address) are set by read_fast_query, the rest only with has_subnet(): no initialisers,
  // which every query would pay for.
  std::size_t subnet_at;
  std::size_t subnet_size;
  std::uint8_t subnet_source;                     // SOURCE PREFIX-LENGTH
  std::array<std::uint8_t, 16> subnet_address;    // its first subnet_address_size bytes: zero past the option's ADDRESS
  std::size_t subnet_address_size;                // 4 (IPv4) or 16 (IPv6)
  std::array<std::uint8_t, kBareOptSize + 4 + 4 + 16> subnet_opt;  // opt_size bytes of it
  mutable std::uint8_t subnet_scope;

  std::span<const std::uint8_t> subnet_bytes() const { return {subnet_address.data(), subnet_address_size}; }
  // A trusted Client Subnet was read: the only OPT of a size other than bare or with a cookie.
  bool has_subnet() const { return opt_size > kBareOptSize && opt_size != kCookieOptSize; }

  std::span<const std::uint8_t> name() const { return {lower.data(), name_size}; }
  std::span<const std::uint8_t> starts() const { return {label_starts.data(), labels}; }
};
static_assert(std::is_trivially_default_constructible_v<FastQuery>, "an initialiser would cost every batch");

// Reads a query the fast path can answer: QR clear, opcode QUERY, one IN question with an
// uncompressed name and a type without special handling, nothing else but an optional
// version-0 OPT without options, with one COOKIE option of 8 or 24 bytes, or with one Client
// Subnet option (its contents checked later, against the trust of the sender). False for
// anything else (the general pipeline's job).
bool read_fast_query(std::span<const std::uint8_t> packet, Transport transport, FastQuery& query);

}  // namespace cutover::auth
