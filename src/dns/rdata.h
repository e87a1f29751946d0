// RDATA codecs for every supported RR type: presentation text <-> canonical wire, and
// message wire (possibly compressed) <-> canonical wire. Canonical wire means embedded
// names are uncompressed and keep their case. Types without a codec are opaque (RFC 3597).
// Stateless free functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/bytes.h"
#include "base/result.h"
#include "dns/name.h"
#include "dns/types.h"

namespace cutover::dns {

class NameCompressor;

using Rdata = std::vector<std::uint8_t>;

// One token of a record's rdata as the zone lexer split it.
struct TextToken {
  std::string text;     // escapes inside quoted strings are NOT yet decoded
  bool quoted = false;  // it was written "like this"
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

// Parses rdata from its presentation tokens; relative names get `origin` appended.
// Accepts the generic form `\# LENGTH HEX...` for every type. On error, Error::where is
// the index of the offending token (or tokens.size() when tokens are missing).
base::Result<Rdata> rdata_from_text(RRType type, std::span<const TextToken> tokens, const Name& origin);

// Presentation form of canonical rdata (names absolute, with trailing dot). Types without
// a codec, and rdata that does not decode for its type, print as `\# LENGTH HEX`.
std::string rdata_to_text(RRType type, std::span<const std::uint8_t> rdata);

// Reads `rdlength` bytes of rdata at the reader's position inside a whole message,
// decompressing embedded names and validating the layout of known types.
base::Result<Rdata> rdata_from_wire(RRType type, base::ByteReader& message, std::uint16_t rdlength);

// Appends rdata to a message; names in RFC 1035 types (NS, CNAME, SOA, PTR, MX ...) are
// compressed through `compressor`, others are written uncompressed (RFC 3597 §4).
void rdata_to_wire(RRType type, std::span<const std::uint8_t> rdata, base::ByteWriter& out,
                   NameCompressor& compressor);

// The domain name an RR points at, for additional-section processing and chains:
// NS/CNAME/DNAME/PTR target, MX exchange, SRV target. nullopt for other types.
std::optional<Name> rdata_target_name(RRType type, std::span<const std::uint8_t> rdata);

struct SoaFields {
  Name mname;
  Name rname;
  std::uint32_t serial = 0;
  std::uint32_t refresh = 0;
  std::uint32_t retry = 0;
  std::uint32_t expire = 0;
  std::uint32_t minimum = 0;
};
base::Result<SoaFields> parse_soa(std::span<const std::uint8_t> rdata);
Rdata encode_soa(const SoaFields& soa);

// The hash parameters that open NSEC3 and NSEC3PARAM rdata (RFC 5155 §3.2, §4.2); the salt is
// a view into the rdata. nullopt when the rdata is too short for its salt.
struct Nsec3Params {
  std::uint8_t algorithm = 0;
  std::uint8_t flags = 0;
  std::uint16_t iterations = 0;
  std::span<const std::uint8_t> salt;
};
std::optional<Nsec3Params> parse_nsec3_params(std::span<const std::uint8_t> rdata);

// Canonical form for DNSSEC and comparison (RFC 4034 §6.2): names in the listed types lowercased.
Rdata rdata_canonical(RRType type, std::span<const std::uint8_t> rdata);
// rdata_canonical(type, a) == rdata_canonical(type, b), without allocating unless both hold a
// name that is lowered in canonical form and their bytes differ only there or elsewhere.
bool rdata_canonical_equal(RRType type, std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);
// Whether rdata_canonical can change rdata of `type` (it holds a name that canonical form
// lowercases); false for A, AAAA, TXT and the like, whose wire form is canonical already.
bool canonical_form_lowers_names(RRType type);

}  // namespace cutover::dns
