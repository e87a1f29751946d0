// Table-driven rdata codecs: each known type is a list of field kinds; the generic code
// below walks that list for text, wire, compression and canonical form (RFC 1035, 3597, 4034).
#include "dns/rdata.h"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "base/load.h"
#include "dns/base_encoding.h"
#include "dns/message.h"
#include "dns/rdata_fields.h"
#include "dns/text_codec.h"

namespace cutover::dns {
namespace {

using base::ErrorCode;
using base::make_error;
using base::Result;
using enum FieldKind;

constexpr std::size_t kMaxRdataLength = 0xFFFF;
constexpr std::size_t kMaxFields = 9;

constexpr FieldKind kAFields[] = {kIpv4};
constexpr FieldKind kAaaaFields[] = {kIpv6};
constexpr FieldKind kCompressedTarget[] = {kCompressedName};
constexpr FieldKind kSoaFields[] = {kCompressedName, kCompressedName, kU32, kPeriod, kPeriod, kPeriod, kPeriod};
constexpr FieldKind kMxFields[] = {kU16, kCompressedName};
constexpr FieldKind kTxtFields[] = {kStringList};
constexpr FieldKind kHinfoFields[] = {kString, kString};
constexpr FieldKind kSrvFields[] = {kU16, kU16, kU16, kLegacyName};
constexpr FieldKind kNaptrFields[] = {kU16, kU16, kString, kString, kString, kLegacyName};
constexpr FieldKind kDnameFields[] = {kName};
constexpr FieldKind kCaaFields[] = {kU8, kCaaTag, kCaaValue};
constexpr FieldKind kSshfpFields[] = {kU8, kU8, kHex};
constexpr FieldKind kTlsaFields[] = {kU8, kU8, kU8, kHex};
constexpr FieldKind kSvcbFields[] = {kU16, kCaseName, kSvcParams};
constexpr FieldKind kDsFields[] = {kU16, kU8, kU8, kHex};
constexpr FieldKind kDnskeyFields[] = {kU16, kU8, kU8, kBase64};
constexpr FieldKind kRrsigFields[] = {kTypeCode, kU8, kU8, kU32, kTime, kTime, kU16, kName, kBase64};
constexpr FieldKind kNsecFields[] = {kCaseName, kTypeBitmap};
constexpr FieldKind kNsec3Fields[] = {kU8, kU8, kU16, kHexSalt, kBase32Hash, kTypeBitmap};
constexpr FieldKind kNsec3ParamFields[] = {kU8, kU8, kU16, kHexSalt};
constexpr FieldKind kWksFields[] = {kIpv4, kProtocol, kPortBitmap};
constexpr FieldKind kTwoCompressedNames[] = {kCompressedName, kCompressedName};
constexpr FieldKind kTwoLegacyNames[] = {kLegacyName, kLegacyName};
constexpr FieldKind kPreferenceLegacyName[] = {kU16, kLegacyName};
constexpr FieldKind kStringField[] = {kString};
constexpr FieldKind kIsdnFields[] = {kString, kOptString};
constexpr FieldKind kNsapFields[] = {kNsap};
constexpr FieldKind kNameField[] = {kName};
constexpr FieldKind kTwoNames[] = {kName, kName};
constexpr FieldKind kSigFields[] = {kTypeCode, kU8, kU8, kU32, kTime, kTime, kU16, kLegacyName, kBase64};
constexpr FieldKind kKeyFields[] = {kU16, kU8, kU8, kOptBase64};
constexpr FieldKind kPxFields[] = {kU16, kLegacyName, kLegacyName};
constexpr FieldKind kGposFields[] = {kString, kString, kString};
constexpr FieldKind kLocFields[] = {kLoc};
constexpr FieldKind kHexField[] = {kHex};
constexpr FieldKind kCertFields[] = {kCertType, kU16, kAlgorithm, kBase64};
constexpr FieldKind kSinkFields[] = {kU8, kU8, kU8, kOptBase64};
constexpr FieldKind kAplFields[] = {kAplItems};
constexpr FieldKind kIpseckeyFields[] = {kU8, kU8, kU8, kIpsecGateway, kOptBase64};
constexpr FieldKind kBase64Field[] = {kBase64};
constexpr FieldKind kHipFields[] = {kHip};
constexpr FieldKind kCsyncFields[] = {kU32, kU16, kTypeBitmap};
constexpr FieldKind kZonemdFields[] = {kU32, kU8, kU8, kHex};
constexpr FieldKind kNxtFields[] = {kLegacyName, kNxtBitmap};
constexpr FieldKind kA6Fields[] = {kA6};
constexpr FieldKind kAtmaFields[] = {kAtma};
constexpr FieldKind kDoaFields[] = {kU32, kU32, kU8, kString, kDoaData};
constexpr FieldKind kIlnp64Fields[] = {kU16, kIlnp64};
constexpr FieldKind kL32Fields[] = {kU16, kIpv4};
constexpr FieldKind kLpFields[] = {kU16, kName};
constexpr FieldKind kEui48Fields[] = {kEui48};
constexpr FieldKind kEui64Fields[] = {kEui64};
constexpr FieldKind kUriFields[] = {kU16, kU16, kCaaValue};
constexpr FieldKind kAmtRelayFields[] = {kU8, kAmtRelay};

struct TypeLayout {
  RRType type;
  std::span<const FieldKind> fields;
  int target_field;  // index of the name rdata_target_name() returns, -1 for none
};

constexpr std::array kLayouts{
    TypeLayout{RRType::A, kAFields, -1},
    TypeLayout{RRType::NS, kCompressedTarget, 0},
    TypeLayout{RRType::CNAME, kCompressedTarget, 0},
    TypeLayout{RRType::SOA, kSoaFields, -1},
    TypeLayout{RRType::PTR, kCompressedTarget, 0},
    TypeLayout{RRType::HINFO, kHinfoFields, -1},
    TypeLayout{RRType::MX, kMxFields, 1},
    TypeLayout{RRType::TXT, kTxtFields, -1},
    TypeLayout{RRType::AAAA, kAaaaFields, -1},
    TypeLayout{RRType::SRV, kSrvFields, 3},
    TypeLayout{RRType::NAPTR, kNaptrFields, -1},
    TypeLayout{RRType::DNAME, kDnameFields, 0},
    TypeLayout{RRType::DS, kDsFields, -1},
    TypeLayout{RRType::SSHFP, kSshfpFields, -1},
    TypeLayout{RRType::RRSIG, kRrsigFields, -1},
    TypeLayout{RRType::NSEC, kNsecFields, -1},
    TypeLayout{RRType::DNSKEY, kDnskeyFields, -1},
    TypeLayout{RRType::NSEC3, kNsec3Fields, -1},
    TypeLayout{RRType::NSEC3PARAM, kNsec3ParamFields, -1},
    TypeLayout{RRType::TLSA, kTlsaFields, -1},
    TypeLayout{RRType::SVCB, kSvcbFields, -1},
    TypeLayout{RRType::HTTPS, kSvcbFields, -1},
    TypeLayout{RRType::CAA, kCaaFields, -1},
    // RFC 1035 and the other types BIND reads (docs/zone-files.md lists them with their RFCs).
    TypeLayout{RRType::MD, kCompressedTarget, -1},
    TypeLayout{RRType::MF, kCompressedTarget, -1},
    TypeLayout{RRType::MB, kCompressedTarget, -1},
    TypeLayout{RRType::MG, kCompressedTarget, -1},
    TypeLayout{RRType::MR, kCompressedTarget, -1},
    TypeLayout{RRType::WKS, kWksFields, -1},
    TypeLayout{RRType::MINFO, kTwoCompressedNames, -1},
    TypeLayout{RRType::RP, kTwoLegacyNames, -1},
    TypeLayout{RRType::AFSDB, kPreferenceLegacyName, -1},
    TypeLayout{RRType::X25, kStringField, -1},
    TypeLayout{RRType::ISDN, kIsdnFields, -1},
    TypeLayout{RRType::RT, kPreferenceLegacyName, -1},
    TypeLayout{RRType::NSAP, kNsapFields, -1},
    TypeLayout{RRType::NSAP_PTR, kNameField, -1},
    TypeLayout{RRType::SIG, kSigFields, -1},
    TypeLayout{RRType::KEY, kKeyFields, -1},
    TypeLayout{RRType::PX, kPxFields, -1},
    TypeLayout{RRType::GPOS, kGposFields, -1},
    TypeLayout{RRType::LOC, kLocFields, -1},
    TypeLayout{RRType::EID, kHexField, -1},
    TypeLayout{RRType::NIMLOC, kHexField, -1},
    TypeLayout{RRType::KX, kPreferenceLegacyName, -1},
    TypeLayout{RRType::CERT, kCertFields, -1},
    TypeLayout{RRType::SINK, kSinkFields, -1},
    TypeLayout{RRType::APL, kAplFields, -1},
    TypeLayout{RRType::IPSECKEY, kIpseckeyFields, -1},
    TypeLayout{RRType::DHCID, kBase64Field, -1},
    TypeLayout{RRType::SMIMEA, kTlsaFields, -1},
    TypeLayout{RRType::HIP, kHipFields, -1},
    TypeLayout{RRType::NINFO, kTxtFields, -1},
    TypeLayout{RRType::RKEY, kDnskeyFields, -1},
    TypeLayout{RRType::TALINK, kTwoNames, -1},
    TypeLayout{RRType::CDS, kDsFields, -1},
    TypeLayout{RRType::CDNSKEY, kDnskeyFields, -1},
    TypeLayout{RRType::OPENPGPKEY, kBase64Field, -1},
    TypeLayout{RRType::CSYNC, kCsyncFields, -1},
    TypeLayout{RRType::ZONEMD, kZonemdFields, -1},
    TypeLayout{RRType::SPF, kTxtFields, -1},
    TypeLayout{RRType::NID, kIlnp64Fields, -1},
    TypeLayout{RRType::L32, kL32Fields, -1},
    TypeLayout{RRType::L64, kIlnp64Fields, -1},
    TypeLayout{RRType::LP, kLpFields, -1},
    TypeLayout{RRType::EUI48, kEui48Fields, -1},
    TypeLayout{RRType::EUI64, kEui64Fields, -1},
    TypeLayout{RRType::URI, kUriFields, -1},
    TypeLayout{RRType::AVC, kTxtFields, -1},
    TypeLayout{RRType::AMTRELAY, kAmtRelayFields, -1},
    TypeLayout{RRType::NXT, kNxtFields, -1},
    TypeLayout{RRType::A6, kA6Fields, -1},
    TypeLayout{RRType::ATMA, kAtmaFields, -1},
    TypeLayout{RRType::DOA, kDoaFields, -1},
    TypeLayout{RRType::RESINFO, kTxtFields, -1},
    TypeLayout{RRType::WALLET, kTxtFields, -1},
    TypeLayout{RRType::TA, kDsFields, -1},
    TypeLayout{RRType::DLV, kDsFields, -1},
};

const TypeLayout* find_layout(RRType type) {
  for (const auto& layout : kLayouts) {
    if (layout.type == type) return &layout;
  }
  return nullptr;
}

// Byte ranges of each field of canonical rdata.
struct FieldSpans {
  std::array<std::span<const std::uint8_t>, kMaxFields> fields;
  std::size_t count = 0;
};

std::optional<FieldSpans> split_fields(const TypeLayout& layout, std::span<const std::uint8_t> rdata) {
  FieldSpans spans;
  std::size_t pos = 0;
  for (FieldKind kind : layout.fields) {
    auto length = field_length(kind, rdata, pos);
    if (!length) return std::nullopt;
    spans.fields[spans.count++] = rdata.subspan(pos, *length);
    pos += *length;
  }
  if (pos != rdata.size()) return std::nullopt;
  return spans;
}

// RFC 3597 §5: `\# LENGTH HEX...`; the data must still fit the layout of a known type.
Result<Rdata> generic_from_text(const TypeLayout* layout, std::span<const TextToken> tokens) {
  if (tokens.size() < 2) return make_error(ErrorCode::kMalformed, "\\# needs a length", tokens.size());
  auto length = parse_decimal(tokens[1].text, kMaxRdataLength);
  if (!length) return make_error(ErrorCode::kMalformed, fmt::format("bad \\# length '{}'", tokens[1].text), 1);
  std::string hex;
  for (std::size_t i = 2; i < tokens.size(); ++i) hex += tokens[i].text;
  Rdata rdata;
  if (!hex_decode(hex, rdata)) return make_error(ErrorCode::kMalformed, "bad hex in \\# data", 2);
  if (rdata.size() != *length) {
    return make_error(ErrorCode::kMalformed,
                      fmt::format("\\# length {} but {} octets of data", *length, rdata.size()), 1);
  }
  if (layout != nullptr && !split_fields(*layout, rdata)) {
    return make_error(ErrorCode::kMalformed,
                      fmt::format("\\# data is not valid {} rdata", type_to_text(layout->type)), 2);
  }
  return rdata;
}

std::string generic_to_text(std::span<const std::uint8_t> rdata) {
  if (rdata.empty()) return "\\# 0";
  return fmt::format("\\# {} {}", rdata.size(), hex_encode(rdata));
}

}  // namespace

Result<Rdata> rdata_from_text(RRType type, std::span<const TextToken> tokens, const Name& origin) {
  const TypeLayout* layout = find_layout(type);
  if (!tokens.empty() && !tokens[0].quoted && tokens[0].text == "\\#") return generic_from_text(layout, tokens);
  if (layout == nullptr) {
    return make_error(ErrorCode::kUnsupported,
                      fmt::format("type {} needs the generic \\# form", type_to_text(type)), 0);
  }
  Rdata rdata;
  std::size_t index = 0;
  for (FieldKind kind : layout->fields) {
    if (base::Status status = field_from_text(kind, tokens, index, origin, rdata); !status) return status.error();
  }
  if (index < tokens.size()) {
    return make_error(ErrorCode::kMalformed, fmt::format("unexpected '{}' after rdata", tokens[index].text), index);
  }
  if (rdata.size() > kMaxRdataLength) return make_error(ErrorCode::kLimit, "rdata longer than 65535 octets", 0);
  return rdata;
}

std::string rdata_to_text(RRType type, std::span<const std::uint8_t> rdata) {
  const TypeLayout* layout = find_layout(type);
  auto spans = layout != nullptr ? split_fields(*layout, rdata) : std::nullopt;
  if (!spans) return generic_to_text(rdata);
  std::string text;
  for (std::size_t i = 0; i < spans->count; ++i) {
    auto before = rdata.first(static_cast<std::size_t>(spans->fields[i].data() - rdata.data()));
    std::string field = field_to_text(layout->fields[i], spans->fields[i], before);
    if (field.empty()) continue;
    if (!text.empty()) text.push_back(' ');
    text.append(field);
  }
  return text;
}

Result<Rdata> rdata_from_wire(RRType type, base::ByteReader& message, std::uint16_t rdlength) {
  std::size_t start = message.pos();
  if (message.remaining() < rdlength) return make_error(ErrorCode::kMalformed, "rdata runs past the end", start);
  std::size_t end = start + rdlength;
  auto data = message.data().first(end);
  const TypeLayout* layout = find_layout(type);
  if (layout == nullptr) {
    (void)message.seek(end);
    return Rdata(data.begin() + static_cast<std::ptrdiff_t>(start), data.end());
  }
  Rdata rdata;
  rdata.reserve(rdlength);
  for (FieldKind kind : layout->fields) {
    std::size_t pos = message.pos();
    if (kind == kCompressedName || kind == kLegacyName) {  // RFC 3597 §4: both are decompressed
      base::ByteReader bounded(data, pos);
      auto name = Name::from_wire(bounded);
      if (!name) return name.error();
      rdata.insert(rdata.end(), name->wire().begin(), name->wire().end());
      (void)message.seek(bounded.pos());
      continue;
    }
    auto length = field_length(kind, data, pos);
    if (!length) {
      return make_error(ErrorCode::kMalformed, fmt::format("malformed {} rdata", type_to_text(type)), pos);
    }
    rdata.insert(rdata.end(), data.begin() + static_cast<std::ptrdiff_t>(pos),
                 data.begin() + static_cast<std::ptrdiff_t>(pos + *length));
    (void)message.seek(pos + *length);
  }
  if (message.pos() != end) {
    return make_error(ErrorCode::kMalformed, fmt::format("trailing bytes in {} rdata", type_to_text(type)),
                      message.pos());
  }
  return rdata;
}

void rdata_to_wire(RRType type, std::span<const std::uint8_t> rdata, base::ByteWriter& out,
                   NameCompressor& compressor) {
  const TypeLayout* layout = find_layout(type);
  auto spans = layout != nullptr ? split_fields(*layout, rdata) : std::nullopt;
  if (!spans) {
    out.write_bytes(rdata);
    return;
  }
  for (std::size_t i = 0; i < spans->count; ++i) {
    FieldKind kind = layout->fields[i];
    if (kind == kCompressedName || kind == kName || kind == kCaseName || kind == kLegacyName) {
      if (auto name = Name::from_uncompressed(spans->fields[i])) {
        // Names that must go out whole are still targets for later names (as in BIND).
        if (kind == kCompressedName) {
          compressor.write(*name, out);
        } else {
          compressor.write_uncompressed(*name, out);
        }
        continue;
      }
    }
    out.write_bytes(spans->fields[i]);
  }
}

std::optional<Name> rdata_target_name(RRType type, std::span<const std::uint8_t> rdata) {
  const TypeLayout* layout = find_layout(type);
  if (layout == nullptr || layout->target_field < 0) return std::nullopt;
  auto spans = split_fields(*layout, rdata);
  if (!spans) return std::nullopt;
  auto name = Name::from_uncompressed(spans->fields[static_cast<std::size_t>(layout->target_field)]);
  if (!name) return std::nullopt;
  return *name;
}

std::optional<Nsec3Params> parse_nsec3_params(std::span<const std::uint8_t> rdata) {
  if (rdata.size() < 5 || rdata.size() < 5u + rdata[4]) return std::nullopt;
  return Nsec3Params{rdata[0], rdata[1], base::load_u16(rdata.data() + 2), rdata.subspan(5, rdata[4])};
}

Result<SoaFields> parse_soa(std::span<const std::uint8_t> rdata) {
  auto spans = split_fields(*find_layout(RRType::SOA), rdata);
  if (!spans) return make_error(ErrorCode::kMalformed, "malformed SOA rdata");
  auto mname = Name::from_uncompressed(spans->fields[0]);
  auto rname = Name::from_uncompressed(spans->fields[1]);
  if (!mname || !rname) return make_error(ErrorCode::kMalformed, "malformed SOA names");
  base::ByteReader numbers(rdata, spans->fields[0].size() + spans->fields[1].size());
  SoaFields soa{*mname, *rname};
  (void)(numbers.read_u32(soa.serial) && numbers.read_u32(soa.refresh) && numbers.read_u32(soa.retry) &&
         numbers.read_u32(soa.expire) && numbers.read_u32(soa.minimum));
  return soa;
}

Rdata encode_soa(const SoaFields& soa) {
  Rdata rdata(soa.mname.wire());
  rdata.insert(rdata.end(), soa.rname.wire().begin(), soa.rname.wire().end());
  base::ByteWriter out(rdata);
  for (std::uint32_t value : {soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum}) out.write_u32(value);
  return rdata;
}

Rdata rdata_canonical(RRType type, std::span<const std::uint8_t> rdata) {
  Rdata canonical(rdata.begin(), rdata.end());
  const TypeLayout* layout = find_layout(type);
  auto spans = layout != nullptr ? split_fields(*layout, rdata) : std::nullopt;
  if (!spans) return canonical;
  std::size_t offset = 0;
  for (std::size_t i = 0; i < spans->count; ++i) {
    FieldKind kind = layout->fields[i];
    if (kind == kCompressedName || kind == kName || kind == kLegacyName) {
      for (std::size_t k = offset; k < offset + spans->fields[i].size(); ++k) canonical[k] = ascii_lower(canonical[k]);
    }
    offset += spans->fields[i].size();
  }
  return canonical;
}

bool rdata_canonical_equal(RRType type, std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  if (a.size() != b.size()) return false;
  if (std::equal(a.begin(), a.end(), b.begin())) return true;
  // Only lowercased name fields can make different bytes equal; types without them settle here.
  return canonical_form_lowers_names(type) && rdata_canonical(type, a) == rdata_canonical(type, b);
}

bool canonical_form_lowers_names(RRType type) {
  const TypeLayout* layout = find_layout(type);
  if (layout == nullptr) return false;
  return std::any_of(layout->fields.begin(), layout->fields.end(), [](FieldKind kind) {
    return kind == kCompressedName || kind == kName || kind == kLegacyName;
  });
}

}  // namespace cutover::dns
