// The building blocks of the table-driven rdata codecs: each RR type is a list of field
// kinds, and each kind knows its wire length, its presentation form and how to parse it.
// Stateless free functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "base/result.h"
#include "dns/name.h"
#include "dns/rdata.h"

namespace cutover::dns {

enum class FieldKind : std::uint8_t {
  kCompressedName,  // RFC 1035 types: compressed in messages, lowercased in canonical form
  kName,            // never compressed, lowercased in canonical form (RFC 4034 §6.2)
  kCaseName,        // never compressed, case kept in canonical form (NSEC per RFC 6840 §5.1, SVCB)
  kU8,
  kU16,
  kU32,
  kPeriod,      // u32 written as seconds or BIND units (SOA timers)
  kTime,        // u32 RRSIG time: YYYYMMDDHHmmSS
  kTypeCode,    // u16 RR type mnemonic (RRSIG type covered)
  kIpv4,
  kIpv6,
  kString,      // one <character-string>
  kStringList,  // one or more <character-string>s up to the end
  kCaaTag,      // length-prefixed alphanumeric tag
  kCaaValue,    // raw octets up to the end, printed as a quoted string
  kBase64,      // one or more octets up to the end, base64 in text (may span tokens)
  kHex,         // one or more octets up to the end, hex in text (may span tokens)
  kHexSalt,     // length-prefixed octets, hex or "-" for empty (NSEC3 salt)
  kBase32Hash,  // length-prefixed octets, base32hex (NSEC3 next hashed owner)
  kTypeBitmap,  // RFC 4034 §4.1.2 windows up to the end
  kSvcParams,   // RFC 9460 SvcParams up to the end
  // RFC 3597 §4: names in the rdata of RP, AFSDB, RT, SIG, PX, NXT, NAPTR, SRV (and KX) are
  // decompressed when read, never compressed when written, lowercased in canonical form.
  kLegacyName,
  kOptString,   // one <character-string>, or nothing at the end (ISDN subaddress)
  kOptBase64,   // octets up to the end, possibly none, base64 in text (IPSECKEY key)
  // Kinds with their own presentation format (rdata_special.h).
  kEui48,        // RFC 7043: six hex pairs joined by '-'
  kEui64,        // RFC 7043: eight hex pairs joined by '-'
  kIlnp64,       // RFC 6742: four 16-bit hex groups joined by ':' (NID, L64)
  kNsap,         // RFC 1706: "0x" and hex up to the end
  kCertType,     // u16, RFC 4398 mnemonics accepted (CERT)
  kAlgorithm,    // u8, DNSSEC algorithm mnemonics accepted (CERT)
  kProtocol,     // u8 IP protocol, "tcp" and "udp" accepted (WKS)
  kPortBitmap,   // RFC 1035 §3.4.2 WKS bitmap of ports up to the end
  kLoc,          // RFC 1876: the whole version-0 rdata
  kAplItems,     // RFC 3123: address prefix items up to the end, possibly none
  kHip,          // RFC 8005: the whole rdata (HIT, key, rendezvous servers)
  kIpsecGateway, // RFC 4025 §2.5: by the gateway type two octets before
  kAmtRelay,     // RFC 8777 §4.2: the D bit and type octet, and the relay it describes
  kNxtBitmap,    // RFC 2535 §5.2: one bit per type below 128, up to the end
  kA6,           // RFC 2874 §3.1: prefix length, address suffix, prefix name (the whole rdata)
  kAtma,         // ATM Forum af-saa-0069.000: format octet and an AESA (hex) or E.164 ("+digits")
  kDoaData,      // draft-durand-doa-over-dns: base64 octets up to the end, "-" for none
};

bool is_name_field(FieldKind kind);

// Bytes the field occupies at `pos` of canonical rdata (names uncompressed); kinds that run
// to the end take everything left. nullopt when the bytes do not follow the field's layout.
std::optional<std::size_t> field_length(FieldKind kind, std::span<const std::uint8_t> rdata, std::size_t pos);

// Parses the field from tokens starting at `index`, advancing it past what was consumed,
// and appends its wire form. Errors carry the offending token index in Error::where.
base::Status field_from_text(FieldKind kind, std::span<const TextToken> tokens, std::size_t& index,
                             const Name& origin, Rdata& out);

// Presentation form of one field whose bytes field_length() accepted; `before` is the rdata
// before it (a gateway's type is there). Kinds that run to the end may print as an empty
// string when they hold nothing.
std::string field_to_text(FieldKind kind, std::span<const std::uint8_t> field,
                          std::span<const std::uint8_t> before = {});

// Length of an uncompressed name at `pos`, or nullopt if it is malformed or runs past the end.
std::optional<std::size_t> uncompressed_name_length(std::span<const std::uint8_t> data, std::size_t pos);

// Reads one character-string token (quoted or not) with escapes decoded; at most 255 octets.
base::Status string_from_token(const TextToken& token, std::size_t index, Rdata& out);

}  // namespace cutover::dns
