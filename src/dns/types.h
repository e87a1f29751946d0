// DNS protocol numbers: RR types, classes, opcodes and rcodes, with their mnemonics.
// RRType and RRClass accept any 16-bit value; unknown ones print as TYPEnnn / CLASSnnn (RFC 3597).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cutover::dns {

// Every type with a mnemonic here is read and written in its presentation format
// (docs/zone-files.md lists them, with their RFCs); any other as TYPEnnn (RFC 3597).
enum class RRType : std::uint16_t {
  A = 1, NS = 2, MD = 3, MF = 4, CNAME = 5, SOA = 6, MB = 7, MG = 8, MR = 9, NULL_ = 10, WKS = 11,
  PTR = 12, HINFO = 13, MINFO = 14, MX = 15, TXT = 16, RP = 17, AFSDB = 18, X25 = 19, ISDN = 20,
  RT = 21, NSAP = 22, NSAP_PTR = 23, SIG = 24, KEY = 25, PX = 26, GPOS = 27, AAAA = 28, LOC = 29,
  NXT = 30, EID = 31, NIMLOC = 32, SRV = 33, ATMA = 34, NAPTR = 35, KX = 36, CERT = 37, A6 = 38,
  DNAME = 39, SINK = 40, OPT = 41, APL = 42, DS = 43, SSHFP = 44, IPSECKEY = 45, RRSIG = 46,
  NSEC = 47, DNSKEY = 48, DHCID = 49, NSEC3 = 50, NSEC3PARAM = 51, TLSA = 52, SMIMEA = 53,
  HIP = 55, NINFO = 56, RKEY = 57, TALINK = 58, CDS = 59, CDNSKEY = 60, OPENPGPKEY = 61,
  CSYNC = 62, ZONEMD = 63, SVCB = 64, HTTPS = 65, SPF = 99, NID = 104, L32 = 105, L64 = 106, LP = 107, EUI48 = 108, EUI64 = 109,
  IXFR = 251, AXFR = 252, MAILB = 253, MAILA = 254, ANY = 255, URI = 256, CAA = 257, AVC = 258,
  DOA = 259, AMTRELAY = 260, RESINFO = 261, WALLET = 262, TA = 32768, DLV = 32769,
};

enum class RRClass : std::uint16_t { IN = 1, CH = 3, HS = 4, NONE = 254, ANY = 255 };

enum class Opcode : std::uint8_t { kQuery = 0, kIQuery = 1, kStatus = 2, kNotify = 4, kUpdate = 5 };

// 12-bit extended rcodes; values above 15 need EDNS.
enum class Rcode : std::uint16_t {
  kNoError = 0, kFormErr = 1, kServFail = 2, kNxDomain = 3, kNotImp = 4, kRefused = 5,
  kYxDomain = 6, kYxRrset = 7, kNxRrset = 8, kNotAuth = 9, kNotZone = 10, kDsoTypeNi = 11,
  kBadVers = 16, kBadKey = 17, kBadTime = 18, kBadMode = 19, kBadName = 20, kBadAlg = 21,
  kBadTrunc = 22, kBadCookie = 23,
};

std::string type_to_text(RRType type);
// Accepts mnemonics (any case) and TYPEnnn.
std::optional<RRType> type_from_text(std::string_view text);

std::string class_to_text(RRClass klass);
// Accepts IN, CH, HS, NONE, ANY (any case) and CLASSnnn.
std::optional<RRClass> class_from_text(std::string_view text);

std::string rcode_to_text(Rcode rcode);
std::string opcode_to_text(Opcode opcode);

// Meta types (OPT, IXFR, AXFR, ANY ...) may not appear as zone data.
inline bool is_meta_type(RRType type) {
  auto value = static_cast<unsigned>(type);
  return type == RRType::OPT || (value >= 128 && value <= 255) || value == 0;
}

}  // namespace cutover::dns
