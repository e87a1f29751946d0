// Per-field-kind wire layout, presentation printing and parsing for the rdata table.
#include "dns/rdata_fields.h"

#include <arpa/inet.h>

#include <fmt/format.h>

#include "dns/base_encoding.h"
#include "dns/rdata_special.h"
#include "dns/svcb_params.h"
#include "dns/text_codec.h"
#include "dns/type_bitmap.h"
#include "dns/types.h"

namespace cutover::dns {
namespace {

using base::ErrorCode;
using base::make_error;
using base::Status;

constexpr std::size_t kMaxStringLength = 255;

base::Error token_error(std::size_t index, std::string message) {
  return make_error(ErrorCode::kMalformed, std::move(message), index);
}

std::uint32_t read_be(std::span<const std::uint8_t> field) {
  std::uint32_t value = 0;
  for (std::uint8_t byte : field) value = (value << 8) | byte;
  return value;
}

// Fixed-width kinds report their width; variable ones 0.
std::size_t fixed_width(FieldKind kind) {
  switch (kind) {
    case FieldKind::kU8: return 1;
    case FieldKind::kU16: case FieldKind::kTypeCode: return 2;
    case FieldKind::kU32: case FieldKind::kPeriod: case FieldKind::kTime: case FieldKind::kIpv4: return 4;
    case FieldKind::kIpv6: return 16;
    default: return 0;
  }
}

// RFC 8659 §4.1: tags are ASCII letters and digits, 1 to 255 of them.
bool is_caa_tag(std::span<const std::uint8_t> tag) {
  if (tag.empty() || tag.size() > kMaxStringLength) return false;
  for (std::uint8_t c : tag) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum) return false;
  }
  return true;
}

bool strings_fill(std::span<const std::uint8_t> data) {
  std::size_t pos = 0;
  while (pos < data.size()) pos += 1 + data[pos];
  return pos == data.size();
}

Status name_from_text(const TextToken& token, std::size_t index, const Name& origin, Rdata& out) {
  if (!token.quoted && token.text == "@") {
    out.insert(out.end(), origin.wire().begin(), origin.wire().end());
    return {};
  }
  auto name = Name::from_text(token.text, &origin);
  if (!name) return token_error(index, fmt::format("bad name '{}': {}", token.text, name.error().message));
  out.insert(out.end(), name->wire().begin(), name->wire().end());
  return {};
}

Status number_from_text(FieldKind kind, const TextToken& token, std::size_t index, Rdata& out) {
  std::optional<std::uint32_t> value;
  switch (kind) {
    case FieldKind::kU8: value = parse_decimal(token.text, 0xFF); break;
    case FieldKind::kU16: value = parse_decimal(token.text, 0xFFFF); break;
    case FieldKind::kU32: value = parse_decimal(token.text, UINT32_MAX); break;
    case FieldKind::kPeriod: value = parse_period(token.text); break;
    case FieldKind::kTime: value = parse_rrsig_time(token.text); break;
    default: {
      auto type = type_from_text(token.text);
      if (type) value = static_cast<std::uint16_t>(*type);
    }
  }
  if (!value) return token_error(index, fmt::format("bad number '{}'", token.text));
  base::ByteWriter writer(out);
  std::size_t width = fixed_width(kind);
  if (width == 1) writer.write_u8(static_cast<std::uint8_t>(*value));
  if (width == 2) writer.write_u16(static_cast<std::uint16_t>(*value));
  if (width == 4) writer.write_u32(*value);
  return {};
}

Status address_from_text(FieldKind kind, const TextToken& token, std::size_t index, Rdata& out) {
  std::uint8_t bytes[16];
  bool ok = kind == FieldKind::kIpv4 ? parse_ipv4(token.text, std::span<std::uint8_t, 4>(bytes, 4))
                                     : inet_pton(AF_INET6, token.text.c_str(), bytes) == 1;
  if (!ok) return token_error(index, fmt::format("bad address '{}'", token.text));
  out.insert(out.end(), bytes, bytes + fixed_width(kind));
  return {};
}

// Concatenates every remaining token (base64 and hex may be split by spaces).
Status encoded_rest_from_text(FieldKind kind, std::span<const TextToken> tokens, std::size_t& index, Rdata& out) {
  if (index >= tokens.size()) return token_error(index, "missing data");
  std::string joined;
  std::size_t first = index;
  for (; index < tokens.size(); ++index) joined += tokens[index].text;
  std::size_t before = out.size();
  bool ok = kind == FieldKind::kBase64 ? base64_decode(joined, out) : hex_decode(joined, out);
  if (!ok) return token_error(first, kind == FieldKind::kBase64 ? "bad base64 data" : "bad hex data");
  // An empty quoted token decodes to nothing; the wire form refuses empty keys, signatures
  // and digests (field_wire_length), so text must too.
  if (out.size() == before) return token_error(first, "missing data");
  return {};
}

Status length_prefixed_from_text(FieldKind kind, const TextToken& token, std::size_t index, Rdata& out) {
  Rdata bytes;
  bool ok = true;
  if (kind == FieldKind::kHexSalt) {
    if (token.text != "-") ok = hex_decode(token.text, bytes);
  } else {
    ok = base32hex_decode(token.text, bytes) && !bytes.empty();
  }
  if (!ok || bytes.size() > kMaxStringLength) return token_error(index, fmt::format("bad value '{}'", token.text));
  out.push_back(static_cast<std::uint8_t>(bytes.size()));
  out.insert(out.end(), bytes.begin(), bytes.end());
  return {};
}

Status caa_tag_from_text(const TextToken& token, std::size_t index, Rdata& out) {
  const std::string& tag = token.text;
  if (!is_caa_tag({reinterpret_cast<const std::uint8_t*>(tag.data()), tag.size()})) {
    return token_error(index, fmt::format("CAA tag '{}' is not 1 to 255 letters and digits", tag));
  }
  out.push_back(static_cast<std::uint8_t>(tag.size()));
  out.insert(out.end(), tag.begin(), tag.end());
  return {};
}

std::string address_to_text(FieldKind kind, std::span<const std::uint8_t> field) {
  char text[INET6_ADDRSTRLEN];
  int family = kind == FieldKind::kIpv4 ? AF_INET : AF_INET6;
  if (inet_ntop(family, field.data(), text, sizeof text) == nullptr) return {};
  return text;
}

std::string strings_to_text(std::span<const std::uint8_t> field) {
  std::string text;
  std::size_t pos = 0;
  while (pos < field.size()) {
    if (!text.empty()) text.push_back(' ');
    std::size_t length = field[pos];
    append_quoted(field.subspan(pos + 1, length), text);
    pos += 1 + length;
  }
  return text;
}

}  // namespace

bool is_name_field(FieldKind kind) {
  return kind == FieldKind::kCompressedName || kind == FieldKind::kName || kind == FieldKind::kCaseName ||
         kind == FieldKind::kLegacyName;
}

std::optional<std::size_t> uncompressed_name_length(std::span<const std::uint8_t> data, std::size_t pos) {
  std::size_t start = pos;
  while (pos < data.size()) {
    std::uint8_t length = data[pos];
    if (length > Name::kMaxLabelLength) return std::nullopt;
    pos += 1 + length;
    if (pos - start > Name::kMaxWireLength) return std::nullopt;
    if (length == 0) return pos - start;
  }
  return std::nullopt;
}

std::optional<std::size_t> field_length(FieldKind kind, std::span<const std::uint8_t> rdata, std::size_t pos) {
  if (pos > rdata.size()) return std::nullopt;
  std::size_t left = rdata.size() - pos;
  auto rest = rdata.subspan(pos);
  if (std::size_t width = fixed_width(kind); width != 0) {
    return left >= width ? std::optional<std::size_t>(width) : std::nullopt;
  }
  if (is_special_field(kind)) return special_field_length(kind, rdata, pos);
  switch (kind) {
    case FieldKind::kCompressedName: case FieldKind::kName: case FieldKind::kCaseName: case FieldKind::kLegacyName:
      return uncompressed_name_length(rdata, pos);
    case FieldKind::kOptString:
      if (left == 0) return 0;
      if (left < 1u + rest[0]) return std::nullopt;
      return 1u + rest[0];
    case FieldKind::kOptBase64:
      return left;
    case FieldKind::kString: case FieldKind::kHexSalt:
      if (left < 1 || left < 1u + rest[0]) return std::nullopt;
      return 1u + rest[0];
    case FieldKind::kCaaTag:
      if (left < 1 || left < 1u + rest[0] || !is_caa_tag(rest.subspan(1, rest[0]))) return std::nullopt;
      return 1u + rest[0];
    case FieldKind::kBase32Hash:
      if (left < 1 || rest[0] == 0 || left < 1u + rest[0]) return std::nullopt;
      return 1u + rest[0];
    case FieldKind::kStringList:
      if (left == 0 || !strings_fill(rest)) return std::nullopt;
      return left;
    case FieldKind::kTypeBitmap:
      if (!type_bitmap_valid(rest)) return std::nullopt;
      return left;
    case FieldKind::kSvcParams:
      if (!svc_params_valid(rest)) return std::nullopt;
      return left;
    case FieldKind::kBase64: case FieldKind::kHex:
      // Keys, signatures and digests are never empty, and text cannot express empty data.
      if (left == 0) return std::nullopt;
      return left;
    default:  // kCaaValue: any octets
      return left;
  }
}

Status string_from_token(const TextToken& token, std::size_t index, Rdata& out) {
  std::string bytes;
  if (!decode_escapes(token.text, bytes)) return token_error(index, "bad escape in character-string");
  if (bytes.size() > kMaxStringLength) return token_error(index, "character-string longer than 255 octets");
  out.push_back(static_cast<std::uint8_t>(bytes.size()));
  out.insert(out.end(), bytes.begin(), bytes.end());
  return {};
}

Status field_from_text(FieldKind kind, std::span<const TextToken> tokens, std::size_t& index, const Name& origin,
                       Rdata& out) {
  if (is_special_field(kind)) return special_field_from_text(kind, tokens, index, origin, out);
  switch (kind) {
    case FieldKind::kOptString:
      if (index >= tokens.size()) return {};
      ++index;
      return string_from_token(tokens[index - 1], index - 1, out);
    case FieldKind::kOptBase64: {
      std::string joined;
      std::size_t first = index;
      for (; index < tokens.size(); ++index) joined += tokens[index].text;
      if (!base64_decode(joined, out)) return token_error(first, "bad base64 data");
      return {};
    }
    case FieldKind::kTypeBitmap: return type_bitmap_from_text(tokens, index, out);
    case FieldKind::kSvcParams: return svc_params_from_text(tokens, index, out);
    case FieldKind::kBase64: case FieldKind::kHex: return encoded_rest_from_text(kind, tokens, index, out);
    case FieldKind::kStringList: {
      if (index >= tokens.size()) return token_error(index, "missing character-string");
      for (; index < tokens.size(); ++index) {
        if (Status status = string_from_token(tokens[index], index, out); !status) return status;
      }
      return {};
    }
    default: break;
  }
  if (index >= tokens.size()) return token_error(index, "missing rdata field");
  const TextToken& token = tokens[index];
  std::size_t at = index++;
  switch (kind) {
    case FieldKind::kCompressedName: case FieldKind::kName: case FieldKind::kCaseName: case FieldKind::kLegacyName:
      return name_from_text(token, at, origin, out);
    case FieldKind::kIpv4: case FieldKind::kIpv6: return address_from_text(kind, token, at, out);
    case FieldKind::kString: return string_from_token(token, at, out);
    case FieldKind::kCaaTag: return caa_tag_from_text(token, at, out);
    case FieldKind::kCaaValue: {
      std::string bytes;
      if (!decode_escapes(token.text, bytes)) return token_error(at, "bad escape in CAA value");
      out.insert(out.end(), bytes.begin(), bytes.end());
      return {};
    }
    case FieldKind::kHexSalt: case FieldKind::kBase32Hash: return length_prefixed_from_text(kind, token, at, out);
    default: return number_from_text(kind, token, at, out);
  }
}

std::string field_to_text(FieldKind kind, std::span<const std::uint8_t> field, std::span<const std::uint8_t> before) {
  if (is_special_field(kind)) return special_field_to_text(kind, field, before);
  switch (kind) {
    case FieldKind::kOptString: return field.empty() ? std::string() : strings_to_text(field);
    case FieldKind::kOptBase64: return base64_encode(field);
    case FieldKind::kCompressedName: case FieldKind::kName: case FieldKind::kCaseName: case FieldKind::kLegacyName: {
      auto name = Name::from_uncompressed(field);
      return name ? name->to_text() : std::string();
    }
    case FieldKind::kU8: case FieldKind::kU16: case FieldKind::kU32: case FieldKind::kPeriod:
      return fmt::format("{}", read_be(field));
    case FieldKind::kTime: return rrsig_time_to_text(read_be(field));
    case FieldKind::kTypeCode: return type_to_text(static_cast<RRType>(read_be(field)));
    case FieldKind::kIpv4: case FieldKind::kIpv6: return address_to_text(kind, field);
    case FieldKind::kString: case FieldKind::kStringList: return strings_to_text(field);
    case FieldKind::kCaaTag: return std::string(field.begin() + 1, field.end());
    case FieldKind::kCaaValue: {
      std::string text;
      append_quoted(field, text);
      return text;
    }
    case FieldKind::kBase64: return base64_encode(field);
    case FieldKind::kHex: return hex_encode(field);
    case FieldKind::kHexSalt: return field.size() == 1 ? std::string("-") : hex_encode(field.subspan(1));
    case FieldKind::kBase32Hash: return base32hex_encode(field.subspan(1));
    case FieldKind::kTypeBitmap: return type_bitmap_to_text(field);
    case FieldKind::kSvcParams: return svc_params_to_text(field);
    default: break;
  }
  return {};
}

}  // namespace cutover::dns
