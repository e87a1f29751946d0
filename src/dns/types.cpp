// Mnemonic tables for RR types, classes, opcodes and rcodes.
#include "dns/types.h"

#include <array>
#include <charconv>
#include <utility>

#include <fmt/format.h>

#include "dns/text_codec.h"

namespace cutover::dns {
namespace {

struct TypeName {
  RRType type;
  std::string_view name;
};

constexpr std::array kTypeNames{
    TypeName{RRType::A, "A"},
    TypeName{RRType::NS, "NS"},
    TypeName{RRType::MD, "MD"},
    TypeName{RRType::MF, "MF"},
    TypeName{RRType::CNAME, "CNAME"},
    TypeName{RRType::SOA, "SOA"},
    TypeName{RRType::MB, "MB"},
    TypeName{RRType::MG, "MG"},
    TypeName{RRType::MR, "MR"},
    TypeName{RRType::NULL_, "NULL"},
    TypeName{RRType::WKS, "WKS"},
    TypeName{RRType::PTR, "PTR"},
    TypeName{RRType::HINFO, "HINFO"},
    TypeName{RRType::MINFO, "MINFO"},
    TypeName{RRType::MX, "MX"},
    TypeName{RRType::TXT, "TXT"},
    TypeName{RRType::RP, "RP"},
    TypeName{RRType::AFSDB, "AFSDB"},
    TypeName{RRType::X25, "X25"},
    TypeName{RRType::ISDN, "ISDN"},
    TypeName{RRType::RT, "RT"},
    TypeName{RRType::NSAP, "NSAP"},
    TypeName{RRType::NSAP_PTR, "NSAP-PTR"},
    TypeName{RRType::SIG, "SIG"},
    TypeName{RRType::KEY, "KEY"},
    TypeName{RRType::PX, "PX"},
    TypeName{RRType::GPOS, "GPOS"},
    TypeName{RRType::AAAA, "AAAA"},
    TypeName{RRType::LOC, "LOC"},
    TypeName{RRType::NXT, "NXT"},
    TypeName{RRType::EID, "EID"},
    TypeName{RRType::NIMLOC, "NIMLOC"},
    TypeName{RRType::SRV, "SRV"},
    TypeName{RRType::ATMA, "ATMA"},
    TypeName{RRType::NAPTR, "NAPTR"},
    TypeName{RRType::KX, "KX"},
    TypeName{RRType::CERT, "CERT"},
    TypeName{RRType::A6, "A6"},
    TypeName{RRType::DNAME, "DNAME"},
    TypeName{RRType::SINK, "SINK"},
    TypeName{RRType::OPT, "OPT"},
    TypeName{RRType::APL, "APL"},
    TypeName{RRType::DS, "DS"},
    TypeName{RRType::SSHFP, "SSHFP"},
    TypeName{RRType::IPSECKEY, "IPSECKEY"},
    TypeName{RRType::RRSIG, "RRSIG"},
    TypeName{RRType::NSEC, "NSEC"},
    TypeName{RRType::DNSKEY, "DNSKEY"},
    TypeName{RRType::DHCID, "DHCID"},
    TypeName{RRType::NSEC3, "NSEC3"},
    TypeName{RRType::NSEC3PARAM, "NSEC3PARAM"},
    TypeName{RRType::TLSA, "TLSA"},
    TypeName{RRType::SMIMEA, "SMIMEA"},
    TypeName{RRType::HIP, "HIP"},
    TypeName{RRType::NINFO, "NINFO"},
    TypeName{RRType::RKEY, "RKEY"},
    TypeName{RRType::TALINK, "TALINK"},
    TypeName{RRType::CDS, "CDS"},
    TypeName{RRType::CDNSKEY, "CDNSKEY"},
    TypeName{RRType::OPENPGPKEY, "OPENPGPKEY"},
    TypeName{RRType::CSYNC, "CSYNC"},
    TypeName{RRType::ZONEMD, "ZONEMD"},
    TypeName{RRType::SVCB, "SVCB"},
    TypeName{RRType::HTTPS, "HTTPS"},
    TypeName{RRType::SPF, "SPF"},
    TypeName{RRType::NID, "NID"},
    TypeName{RRType::L32, "L32"},
    TypeName{RRType::L64, "L64"},
    TypeName{RRType::LP, "LP"},
    TypeName{RRType::EUI48, "EUI48"},
    TypeName{RRType::EUI64, "EUI64"},
    TypeName{RRType::IXFR, "IXFR"},
    TypeName{RRType::AXFR, "AXFR"},
    TypeName{RRType::MAILB, "MAILB"},
    TypeName{RRType::MAILA, "MAILA"},
    TypeName{RRType::ANY, "ANY"},
    TypeName{RRType::URI, "URI"},
    TypeName{RRType::CAA, "CAA"},
    TypeName{RRType::AVC, "AVC"},
    TypeName{RRType::DOA, "DOA"},
    TypeName{RRType::AMTRELAY, "AMTRELAY"},
    TypeName{RRType::RESINFO, "RESINFO"},
    TypeName{RRType::WALLET, "WALLET"},
    TypeName{RRType::TA, "TA"},
    TypeName{RRType::DLV, "DLV"},
};

struct ClassName {
  RRClass klass;
  std::string_view name;
};

constexpr std::array kClassNames{
    ClassName{RRClass::IN, "IN"},     ClassName{RRClass::CH, "CH"},   ClassName{RRClass::HS, "HS"},
    ClassName{RRClass::NONE, "NONE"}, ClassName{RRClass::ANY, "ANY"},
};

// Parses PREFIXnnn (e.g. TYPE65534) into a 16-bit number.
std::optional<std::uint16_t> parse_generic(std::string_view text, std::string_view prefix) {
  if (text.size() <= prefix.size() || !iequals(text.substr(0, prefix.size()), prefix)) return std::nullopt;
  std::string_view digits = text.substr(prefix.size());
  unsigned value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size() || value > 65535) return std::nullopt;
  return static_cast<std::uint16_t>(value);
}

}  // namespace

std::string type_to_text(RRType type) {
  for (const auto& entry : kTypeNames) {
    if (entry.type == type) return std::string(entry.name);
  }
  return fmt::format("TYPE{}", static_cast<unsigned>(type));
}

std::optional<RRType> type_from_text(std::string_view text) {
  for (const auto& entry : kTypeNames) {
    if (iequals(entry.name, text)) return entry.type;
  }
  if (auto number = parse_generic(text, "TYPE")) return static_cast<RRType>(*number);
  return std::nullopt;
}

std::string class_to_text(RRClass klass) {
  for (const auto& entry : kClassNames) {
    if (entry.klass == klass) return std::string(entry.name);
  }
  return fmt::format("CLASS{}", static_cast<unsigned>(klass));
}

std::optional<RRClass> class_from_text(std::string_view text) {
  // The zone parser asks this of every record's type token too, so no string is built here.
  for (const auto& entry : kClassNames) {
    if (iequals(entry.name, text)) return entry.klass;
  }
  if (auto number = parse_generic(text, "CLASS")) return static_cast<RRClass>(*number);
  return std::nullopt;
}

std::string rcode_to_text(Rcode rcode) {
  static constexpr std::array<std::pair<Rcode, std::string_view>, 20> kNames{{
      {Rcode::kNoError, "NOERROR"}, {Rcode::kFormErr, "FORMERR"},   {Rcode::kServFail, "SERVFAIL"},
      {Rcode::kNxDomain, "NXDOMAIN"}, {Rcode::kNotImp, "NOTIMP"},   {Rcode::kRefused, "REFUSED"},
      {Rcode::kYxDomain, "YXDOMAIN"}, {Rcode::kYxRrset, "YXRRSET"}, {Rcode::kNxRrset, "NXRRSET"},
      {Rcode::kNotAuth, "NOTAUTH"},   {Rcode::kNotZone, "NOTZONE"}, {Rcode::kDsoTypeNi, "DSOTYPENI"},
      {Rcode::kBadVers, "BADVERS"},   {Rcode::kBadKey, "BADKEY"},   {Rcode::kBadTime, "BADTIME"},
      {Rcode::kBadMode, "BADMODE"},   {Rcode::kBadName, "BADNAME"}, {Rcode::kBadAlg, "BADALG"},
      {Rcode::kBadTrunc, "BADTRUNC"}, {Rcode::kBadCookie, "BADCOOKIE"},
  }};
  for (const auto& [code, name] : kNames) {
    if (code == rcode) return std::string(name);
  }
  return fmt::format("RCODE{}", static_cast<unsigned>(rcode));
}

std::string opcode_to_text(Opcode opcode) {
  switch (opcode) {
    case Opcode::kQuery: return "QUERY";
    case Opcode::kIQuery: return "IQUERY";
    case Opcode::kStatus: return "STATUS";
    case Opcode::kNotify: return "NOTIFY";
    case Opcode::kUpdate: return "UPDATE";
  }
  return fmt::format("OPCODE{}", static_cast<unsigned>(opcode));
}

}  // namespace cutover::dns
