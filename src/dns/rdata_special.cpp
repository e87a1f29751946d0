// Wire checks, parsers and printers of the rdata field kinds with their own presentation format.
#include "dns/rdata_special.h"

#include <arpa/inet.h>
#include <netdb.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/bytes.h"
#include "base/load.h"
#include "dns/base_encoding.h"
#include "dns/text_codec.h"
#include "dns/types.h"

namespace cutover::dns {
namespace {

using base::ErrorCode;
using base::make_error;
using base::Status;
using enum FieldKind;

base::Error token_error(std::size_t index, std::string message) {
  return make_error(ErrorCode::kMalformed, std::move(message), index);
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Hex in lowercase, as BIND prints NSAP and ATMA addresses.
std::string lower_hex(std::span<const std::uint8_t> bytes) {
  std::string hex = hex_encode(bytes);
  for (char& c : hex) c = static_cast<char>(ascii_lower(static_cast<std::uint8_t>(c)));
  return hex;
}

// ---- EUI-48/64 (RFC 7043 §3.2, §4.2): hex pairs joined by '-'; ILNP (RFC 6742 §2.3, §3.3):
// four groups of 1 to 4 hex digits joined by ':'.

std::size_t eui_width(FieldKind kind) { return kind == kEui48 ? 6 : 8; }

Status eui_from_text(FieldKind kind, const TextToken& token, std::size_t index, Rdata& out) {
  const std::string& text = token.text;
  std::size_t width = eui_width(kind);
  if (text.size() != width * 3 - 1) return token_error(index, fmt::format("bad EUI address '{}'", text));
  for (std::size_t i = 0; i < width; ++i) {
    int high = hex_digit(text[i * 3]);
    int low = hex_digit(text[i * 3 + 1]);
    if (high < 0 || low < 0 || (i + 1 < width && text[i * 3 + 2] != '-')) {
      return token_error(index, fmt::format("bad EUI address '{}'", text));
    }
    out.push_back(static_cast<std::uint8_t>(high * 16 + low));
  }
  return {};
}

std::string eui_to_text(std::span<const std::uint8_t> field) {
  std::string text;
  for (std::uint8_t byte : field) {
    if (!text.empty()) text.push_back('-');
    text += fmt::format("{:02x}", byte);
  }
  return text;
}

Status ilnp_from_text(const TextToken& token, std::size_t index, Rdata& out) {
  std::string_view text = token.text;
  for (int group = 0; group < 4; ++group) {
    std::size_t end = group < 3 ? text.find(':') : text.size();
    if (end == std::string_view::npos || end == 0 || end > 4) {
      return token_error(index, fmt::format("bad 64-bit locator '{}'", token.text));
    }
    unsigned value = 0;
    for (char c : text.substr(0, end)) {
      int digit = hex_digit(c);
      if (digit < 0) return token_error(index, fmt::format("bad 64-bit locator '{}'", token.text));
      value = value * 16 + static_cast<unsigned>(digit);
    }
    out.push_back(static_cast<std::uint8_t>(value >> 8));
    out.push_back(static_cast<std::uint8_t>(value));
    text.remove_prefix(group < 3 ? end + 1 : end);
  }
  return {};
}

std::string ilnp_to_text(std::span<const std::uint8_t> field) {
  return fmt::format("{:02x}{:02x}:{:02x}{:02x}:{:02x}{:02x}:{:02x}{:02x}", field[0], field[1], field[2], field[3],
                     field[4], field[5], field[6], field[7]);
}

// ---- NSAP (RFC 1706 §5): "0x" and hex digits, dots allowed anywhere after it.

Status nsap_from_text(const TextToken& token, std::size_t index, Rdata& out) {
  std::string_view text = token.text;
  if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) {
    return token_error(index, fmt::format("bad NSAP '{}': it starts with 0x", token.text));
  }
  std::string hex;
  for (char c : text.substr(2)) {
    if (c != '.') hex.push_back(c);
  }
  std::size_t before = out.size();
  if (hex.size() % 2 != 0 || !hex_decode(hex, out) || out.size() == before) {
    return token_error(index, fmt::format("bad NSAP '{}'", token.text));
  }
  return {};
}

// ---- Mnemonics: CERT types (RFC 4398 §2.1), DNSSEC algorithms (RFC 4034 A.1 and the IANA
// registry), IP protocols of WKS.

struct Mnemonic {
  std::string_view name;
  std::uint16_t value;
};

constexpr std::array kCertTypes{
    Mnemonic{"PKIX", 1}, Mnemonic{"SPKI", 2}, Mnemonic{"PGP", 3},      Mnemonic{"IPKIX", 4},
    Mnemonic{"ISPKI", 5}, Mnemonic{"IPGP", 6}, Mnemonic{"ACPKIX", 7}, Mnemonic{"IACPKIX", 8},
    Mnemonic{"URI", 253}, Mnemonic{"OID", 254},
};

constexpr std::array kAlgorithms{
    Mnemonic{"RSAMD5", 1},           Mnemonic{"DH", 2},
    Mnemonic{"DSA", 3},              Mnemonic{"RSASHA1", 5},
    Mnemonic{"DSA-NSEC3-SHA1", 6},   Mnemonic{"NSEC3DSA", 6},
    Mnemonic{"RSASHA1-NSEC3-SHA1", 7}, Mnemonic{"NSEC3RSASHA1", 7},
    Mnemonic{"RSASHA256", 8},        Mnemonic{"RSASHA512", 10},
    Mnemonic{"ECC-GOST", 12},        Mnemonic{"ECDSAP256SHA256", 13},
    Mnemonic{"ECDSAP384SHA384", 14}, Mnemonic{"ED25519", 15},
    Mnemonic{"ED448", 16},           Mnemonic{"INDIRECT", 252},
    Mnemonic{"PRIVATEDNS", 253},     Mnemonic{"PRIVATEOID", 254},
};

constexpr std::array kProtocols{Mnemonic{"tcp", 6}, Mnemonic{"udp", 17}};

template <std::size_t N>
std::optional<std::uint32_t> number_or_mnemonic(const std::array<Mnemonic, N>& names, std::string_view text,
                                                std::uint32_t max) {
  for (const auto& mnemonic : names) {
    if (iequals(mnemonic.name, text)) return mnemonic.value;
  }
  return parse_decimal(std::string(text), max);
}

// ---- Flat bitmaps (WKS ports, NXT types): bit N is the N-th from the top of the first octet.

void set_bit(std::vector<std::uint8_t>& bitmap, std::size_t n) {
  if (bitmap.size() <= n / 8) bitmap.resize(n / 8 + 1);
  bitmap[n / 8] |= static_cast<std::uint8_t>(0x80 >> (n % 8));
}

std::vector<std::size_t> bits_set(std::span<const std::uint8_t> bitmap) {
  std::vector<std::size_t> bits;
  for (std::size_t byte = 0; byte < bitmap.size(); ++byte) {
    for (std::size_t bit = 0; bit < 8; ++bit) {
      if ((bitmap[byte] & (0x80 >> bit)) != 0) bits.push_back(byte * 8 + bit);
    }
  }
  return bits;
}

// ---- WKS port bitmap (RFC 1035 §3.4.2): bit N of the map is port N; text lists the ports,
// as numbers or service names of the record's protocol.

Status ports_from_text(std::span<const TextToken> tokens, std::size_t& index, Rdata& out) {
  const char* protocol = out.empty() ? nullptr : out.back() == 6 ? "tcp" : out.back() == 17 ? "udp" : nullptr;
  std::vector<std::uint8_t> bitmap;
  for (; index < tokens.size(); ++index) {
    const std::string& text = tokens[index].text;
    auto port = parse_decimal(text, 0xFFFF);
    if (!port && protocol != nullptr) {
      // getservbyname is not reentrant, but only the zone parser's thread calls it.
      if (const servent* service = getservbyname(text.c_str(), protocol)) port = ntohs(service->s_port);
    }
    if (!port) return token_error(index, fmt::format("bad port or service '{}'", text));
    set_bit(bitmap, *port);
  }
  out.insert(out.end(), bitmap.begin(), bitmap.end());
  return {};
}

std::string ports_to_text(std::span<const std::uint8_t> field) {
  return fmt::format("{}", fmt::join(bits_set(field), " "));
}

// ---- LOC (RFC 1876 §2 and §3): version 0, size, horizontal and vertical precision (each a
// mantissa and a power of ten of centimetres), latitude and longitude (thousandths of an arc
// second from 2^31 at the equator and the prime meridian), altitude (centimetres above
// 100,000 m below the reference spheroid).

constexpr std::size_t kLocSize = 16;
constexpr std::uint32_t kLocEquator = 1u << 31;
constexpr std::int64_t kLocAltitudeBase = 10000000;  // cm

// A mantissa and exponent up to 9 each; zero only as 0 (0e3 is 0 too, but prints back as 0e0).
bool precision_valid(std::uint8_t value) {
  return (value >> 4) <= 9 && (value & 0x0F) <= 9 && ((value >> 4) != 0 || value == 0);
}

std::uint8_t precision_from_cm(std::uint64_t cm) {
  std::uint8_t exponent = 0;
  std::uint64_t power = 1;
  while (exponent < 9 && cm >= power * 10) {
    power *= 10;
    ++exponent;
  }
  std::uint64_t mantissa = cm / power;
  if (mantissa > 9) mantissa = 9;
  return static_cast<std::uint8_t>((mantissa << 4) | exponent);
}

std::uint64_t precision_to_cm(std::uint8_t value) {
  std::uint64_t cm = value >> 4;
  for (int i = 0; i < (value & 0x0F); ++i) cm *= 10;
  return cm;
}

// A decimal number with at most `decimals` fraction digits, as an integer scaled by 10^decimals.
std::optional<std::int64_t> parse_fixed(std::string_view text, int decimals, bool allow_sign) {
  bool negative = false;
  if (allow_sign && !text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  std::size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
  if (whole.empty() || whole.size() > 10 || fraction.size() > static_cast<std::size_t>(decimals)) return std::nullopt;
  if (dot != std::string_view::npos && fraction.empty()) return std::nullopt;
  std::int64_t value = 0;
  for (char c : whole) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  for (int i = 0; i < decimals; ++i) {
    char c = static_cast<std::size_t>(i) < fraction.size() ? fraction[static_cast<std::size_t>(i)] : '0';
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return negative ? -value : value;
}

std::string_view without_metres(std::string_view text) {
  if (!text.empty() && (text.back() == 'm' || text.back() == 'M')) text.remove_suffix(1);
  return text;
}

// One coordinate: degrees [minutes [seconds]] and a hemisphere letter; thousandths of an arc
// second, signed (north and east positive).
std::optional<std::int64_t> coordinate_from_text(std::span<const TextToken> tokens, std::size_t& index,
                                                 std::int64_t max_degrees, char positive, char negative) {
  std::int64_t parts[3] = {0, 0, 0};
  int count = 0;
  while (index < tokens.size() && count < 3) {
    const std::string& text = tokens[index].text;
    if (text.size() == 1 && (std::toupper(text[0]) == positive || std::toupper(text[0]) == negative)) break;
    auto value = count < 2 ? parse_fixed(text, 0, false) : parse_fixed(text, 3, false);
    if (!value) return std::nullopt;
    parts[count++] = *value;
    ++index;
  }
  if (count == 0 || index >= tokens.size() || tokens[index].text.size() != 1) return std::nullopt;
  char hemisphere = static_cast<char>(std::toupper(tokens[index].text[0]));
  if (hemisphere != positive && hemisphere != negative) return std::nullopt;
  ++index;
  if (parts[0] > max_degrees || parts[1] > 59 || parts[2] > 59999) return std::nullopt;
  std::int64_t value = ((parts[0] * 60 + parts[1]) * 60) * 1000 + parts[2];
  if (value > max_degrees * 3600 * 1000) return std::nullopt;
  return hemisphere == positive ? value : -value;
}

Status loc_from_text(std::span<const TextToken> tokens, std::size_t& index, Rdata& out) {
  std::size_t first = index;
  auto latitude = coordinate_from_text(tokens, index, 90, 'N', 'S');
  if (!latitude) return token_error(first, "bad LOC latitude (degrees [minutes [seconds]] N or S)");
  std::size_t at = index;
  auto longitude = coordinate_from_text(tokens, index, 180, 'E', 'W');
  if (!longitude) return token_error(at, "bad LOC longitude (degrees [minutes [seconds]] E or W)");
  if (index >= tokens.size()) return token_error(index, "LOC needs an altitude");
  auto altitude = parse_fixed(without_metres(tokens[index].text), 2, true);
  if (!altitude || *altitude < -kLocAltitudeBase || *altitude > 4294967295LL - kLocAltitudeBase) {
    return token_error(index, fmt::format("bad LOC altitude '{}'", tokens[index].text));
  }
  ++index;
  // RFC 1876 §3: size 1 m, horizontal precision 10 km, vertical precision 10 m by default.
  std::uint64_t precisions[3] = {100, 1000000, 1000};
  for (int i = 0; i < 3 && index < tokens.size(); ++i, ++index) {
    auto value = parse_fixed(without_metres(tokens[index].text), 2, false);
    if (!value || *value > 9000000000LL) {
      return token_error(index, fmt::format("bad LOC size or precision '{}'", tokens[index].text));
    }
    precisions[i] = static_cast<std::uint64_t>(*value);
  }
  out.push_back(0);  // version
  for (std::uint64_t cm : precisions) out.push_back(precision_from_cm(cm));
  base::ByteWriter writer(out);
  writer.write_u32(static_cast<std::uint32_t>(static_cast<std::int64_t>(kLocEquator) + *latitude));
  writer.write_u32(static_cast<std::uint32_t>(static_cast<std::int64_t>(kLocEquator) + *longitude));
  writer.write_u32(static_cast<std::uint32_t>(*altitude + kLocAltitudeBase));
  return {};
}

std::optional<std::size_t> loc_length(std::span<const std::uint8_t> rest) {
  if (rest.size() != kLocSize || rest[0] != 0) return std::nullopt;
  if (!precision_valid(rest[1]) || !precision_valid(rest[2]) || !precision_valid(rest[3])) return std::nullopt;
  auto within = [](std::uint32_t value, std::int64_t max_degrees) {
    std::int64_t offset = static_cast<std::int64_t>(value) - kLocEquator;
    return offset >= -max_degrees * 3600000 && offset <= max_degrees * 3600000;
  };
  std::uint32_t latitude = base::load_u32(rest.data() + 4);
  std::uint32_t longitude = base::load_u32(rest.data() + 8);
  if (!within(latitude, 90) || !within(longitude, 180)) return std::nullopt;
  return kLocSize;
}

std::string coordinate_to_text(std::uint32_t value, char positive, char negative) {
  std::int64_t offset = static_cast<std::int64_t>(value) - kLocEquator;
  char hemisphere = offset >= 0 ? positive : negative;
  std::int64_t ms = offset >= 0 ? offset : -offset;
  return fmt::format("{} {} {}.{:03} {}", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60, ms % 1000, hemisphere);
}

std::string metres(std::uint64_t cm) { return fmt::format("{}.{:02}m", cm / 100, cm % 100); }

std::string loc_to_text(std::span<const std::uint8_t> field) {
  std::int64_t altitude = static_cast<std::int64_t>(base::load_u32(field.data() + 12)) - kLocAltitudeBase;
  std::uint64_t magnitude = static_cast<std::uint64_t>(altitude < 0 ? -altitude : altitude);
  std::string latitude = coordinate_to_text(base::load_u32(field.data() + 4), 'N', 'S');
  std::string longitude = coordinate_to_text(base::load_u32(field.data() + 8), 'E', 'W');
  return fmt::format("{} {} {}{} {} {} {}", latitude, longitude, altitude < 0 ? "-" : "", metres(magnitude),
                     metres(precision_to_cm(field[1])), metres(precision_to_cm(field[2])),
                     metres(precision_to_cm(field[3])));
}

// ---- APL (RFC 3123 §4): items [!]AFI:ADDRESS/PREFIX; on the wire the family, the prefix
// length, a negation bit with the address length, and the address without trailing zeros.

std::size_t family_size(std::uint16_t family) { return family == 1 ? 4 : family == 2 ? 16 : 0; }

Status apl_from_text(std::span<const TextToken> tokens, std::size_t& index, Rdata& out) {
  for (; index < tokens.size(); ++index) {
    std::string_view text = tokens[index].text;
    auto bad = [&] { return token_error(index, fmt::format("bad APL item '{}' ([!]1:IPv4/len or [!]2:IPv6/len)",
                                                            tokens[index].text)); };
    bool negated = !text.empty() && text[0] == '!';
    if (negated) text.remove_prefix(1);
    std::size_t colon = text.find(':');
    std::size_t slash = text.rfind('/');
    if (colon == std::string_view::npos || slash == std::string_view::npos || slash < colon) return bad();
    auto family = parse_decimal(std::string(text.substr(0, colon)), 0xFFFF);
    auto prefix = parse_decimal(std::string(text.substr(slash + 1)), 0xFF);
    std::size_t size = family ? family_size(static_cast<std::uint16_t>(*family)) : 0;
    if (size == 0 || !prefix || *prefix > size * 8) return bad();
    std::string address(text.substr(colon + 1, slash - colon - 1));
    std::uint8_t bytes[16] = {};
    if (inet_pton(size == 4 ? AF_INET : AF_INET6, address.c_str(), bytes) != 1) return bad();
    std::size_t length = size;
    while (length > 0 && bytes[length - 1] == 0) --length;
    out.push_back(static_cast<std::uint8_t>(*family >> 8));
    out.push_back(static_cast<std::uint8_t>(*family));
    out.push_back(static_cast<std::uint8_t>(*prefix));
    out.push_back(static_cast<std::uint8_t>((negated ? 0x80 : 0) | length));
    out.insert(out.end(), bytes, bytes + length);
  }
  return {};
}

std::optional<std::size_t> apl_length(std::span<const std::uint8_t> rest) {
  std::size_t pos = 0;
  while (pos < rest.size()) {
    if (rest.size() - pos < 4) return std::nullopt;
    std::uint16_t family = static_cast<std::uint16_t>((rest[pos] << 8) | rest[pos + 1]);
    std::size_t size = family_size(family);
    std::size_t length = rest[pos + 3] & 0x7F;
    if (size == 0 || rest[pos + 2] > size * 8 || length > size || rest.size() - pos - 4 < length) return std::nullopt;
    if (length > 0 && rest[pos + 4 + length - 1] == 0) return std::nullopt;  // RFC 3123 §4: no trailing zeros
    pos += 4 + length;
  }
  return rest.size();
}

std::string apl_to_text(std::span<const std::uint8_t> field) {
  std::string text;
  std::size_t pos = 0;
  while (pos < field.size()) {
    std::uint16_t family = static_cast<std::uint16_t>((field[pos] << 8) | field[pos + 1]);
    std::size_t length = field[pos + 3] & 0x7F;
    std::uint8_t bytes[16] = {};
    std::copy_n(field.begin() + static_cast<std::ptrdiff_t>(pos + 4), length, bytes);
    char address[INET6_ADDRSTRLEN] = {};
    inet_ntop(family == 1 ? AF_INET : AF_INET6, bytes, address, sizeof address);
    if (!text.empty()) text.push_back(' ');
    text += fmt::format("{}{}:{}/{}", (field[pos + 3] & 0x80) != 0 ? "!" : "", family, address, field[pos + 2]);
    pos += 4 + length;
  }
  return text;
}

// ---- HIP (RFC 8005 §4, §5): HIT length, public key algorithm, key length, HIT, key, and the
// rendezvous servers (uncompressed names) to the end; text: algorithm, HIT in hex, key in
// base64, servers.

Status hip_from_text(std::span<const TextToken> tokens, std::size_t& index, const Name& origin, Rdata& out) {
  if (tokens.size() - index < 3) return token_error(index, "HIP needs an algorithm, a HIT and a public key");
  auto algorithm = parse_decimal(tokens[index].text, 0xFF);
  if (!algorithm) return token_error(index, fmt::format("bad HIP algorithm '{}'", tokens[index].text));
  Rdata hit;
  if (!hex_decode(tokens[index + 1].text, hit) || hit.empty() || hit.size() > 0xFF) {
    return token_error(index + 1, fmt::format("bad HIT '{}'", tokens[index + 1].text));
  }
  Rdata key;
  if (!base64_decode(tokens[index + 2].text, key) || key.empty() || key.size() > 0xFFFF) {
    return token_error(index + 2, "bad HIP public key");
  }
  out.push_back(static_cast<std::uint8_t>(hit.size()));
  out.push_back(static_cast<std::uint8_t>(*algorithm));
  out.push_back(static_cast<std::uint8_t>(key.size() >> 8));
  out.push_back(static_cast<std::uint8_t>(key.size()));
  out.insert(out.end(), hit.begin(), hit.end());
  out.insert(out.end(), key.begin(), key.end());
  for (index += 3; index < tokens.size(); ++index) {
    auto name = Name::from_text(tokens[index].text, &origin);
    if (!name) return token_error(index, fmt::format("bad rendezvous server '{}'", tokens[index].text));
    out.insert(out.end(), name->wire().begin(), name->wire().end());
  }
  return {};
}

std::optional<std::size_t> hip_length(std::span<const std::uint8_t> rest) {
  if (rest.size() < 4) return std::nullopt;
  std::size_t hit = rest[0];
  std::size_t key = static_cast<std::size_t>((rest[2] << 8) | rest[3]);
  if (hit == 0 || key == 0 || rest.size() - 4 < hit + key) return std::nullopt;
  std::size_t pos = 4 + hit + key;
  while (pos < rest.size()) {
    auto length = uncompressed_name_length(rest, pos);
    if (!length) return std::nullopt;
    pos += *length;
  }
  return rest.size();
}

std::string hip_to_text(std::span<const std::uint8_t> field) {
  std::size_t hit = field[0];
  std::size_t key = static_cast<std::size_t>((field[2] << 8) | field[3]);
  std::string text = fmt::format("{} {} {}", field[1], hex_encode(field.subspan(4, hit)),
                                 base64_encode(field.subspan(4 + hit, key)));
  std::size_t pos = 4 + hit + key;
  while (pos < field.size()) {
    std::size_t length = *uncompressed_name_length(field, pos);
    if (auto name = Name::from_uncompressed(field.subspan(pos, length))) text += " " + name->to_text();
    pos += length;
  }
  return text;
}

// ---- Gateways (RFC 4025 §2.3 IPSECKEY, RFC 8777 §4.2 AMTRELAY): by the type before it,
// none ("."), an IPv4 or IPv6 address, or an uncompressed name.

std::optional<std::size_t> gateway_length(std::uint8_t type, std::span<const std::uint8_t> rdata, std::size_t pos) {
  std::size_t left = rdata.size() - pos;
  switch (type) {
    case 0: return 0;
    case 1: return left >= 4 ? std::optional<std::size_t>(4) : std::nullopt;
    case 2: return left >= 16 ? std::optional<std::size_t>(16) : std::nullopt;
    case 3: return uncompressed_name_length(rdata, pos);
    default: return std::nullopt;
  }
}

Status gateway_from_text(std::uint8_t type, const TextToken& token, std::size_t index, const Name& origin,
                         Rdata& out) {
  std::uint8_t bytes[16];
  switch (type) {
    case 0:
      if (token.text != ".") return token_error(index, "a gateway of type 0 is written '.'");
      return {};
    case 1: case 2: {
      if (inet_pton(type == 1 ? AF_INET : AF_INET6, token.text.c_str(), bytes) != 1) {
        return token_error(index, fmt::format("bad gateway address '{}'", token.text));
      }
      out.insert(out.end(), bytes, bytes + (type == 1 ? 4 : 16));
      return {};
    }
    case 3: {
      auto name = Name::from_text(token.text, &origin);
      if (!name) return token_error(index, fmt::format("bad gateway name '{}'", token.text));
      out.insert(out.end(), name->wire().begin(), name->wire().end());
      return {};
    }
    default: return token_error(index, fmt::format("unknown gateway type {}", type));
  }
}

std::string gateway_to_text(std::uint8_t type, std::span<const std::uint8_t> field) {
  char text[INET6_ADDRSTRLEN] = {};
  switch (type) {
    case 1: inet_ntop(AF_INET, field.data(), text, sizeof text); return text;
    case 2: inet_ntop(AF_INET6, field.data(), text, sizeof text); return text;
    case 3: {
      auto name = Name::from_uncompressed(field);
      return name ? name->to_text() : std::string();
    }
    default: return ".";
  }
}

// AMTRELAY keeps its discovery bit and its relay type in one octet before the relay: the kind
// covers that octet and the relay; text is "D TYPE RELAY".
Status amt_relay_from_text(std::span<const TextToken> tokens, std::size_t& index, const Name& origin, Rdata& out) {
  if (tokens.size() - index < 3) return token_error(index, "AMTRELAY needs a discovery bit, a type and a relay");
  auto discovery = parse_decimal(tokens[index].text, 1);
  auto type = parse_decimal(tokens[index + 1].text, 3);
  if (!discovery) return token_error(index, fmt::format("bad discovery bit '{}'", tokens[index].text));
  if (!type) return token_error(index + 1, fmt::format("bad relay type '{}'", tokens[index + 1].text));
  out.push_back(static_cast<std::uint8_t>((*discovery << 7) | *type));
  index += 3;
  return gateway_from_text(static_cast<std::uint8_t>(*type), tokens[index - 1], index - 1, origin, out);
}


// ---- NXT bitmap (RFC 2535 §5.2): bit N is type N, types 1 to 127 only, trailing zero
// octets left out; text lists the types.

Status nxt_bitmap_from_text(std::span<const TextToken> tokens, std::size_t& index, Rdata& out) {
  std::vector<std::uint8_t> bitmap;
  for (; index < tokens.size(); ++index) {
    auto type = type_from_text(tokens[index].text);
    auto value = type ? static_cast<unsigned>(*type) : 0u;
    if (value == 0 || value > 127) {
      return token_error(index, fmt::format("NXT lists types 1 to 127, not '{}'", tokens[index].text));
    }
    set_bit(bitmap, value);
  }
  out.insert(out.end(), bitmap.begin(), bitmap.end());
  return {};
}

std::string nxt_bitmap_to_text(std::span<const std::uint8_t> field) {
  std::string text;
  for (std::size_t type : bits_set(field)) {
    if (!text.empty()) text.push_back(' ');
    text += type_to_text(static_cast<RRType>(type));
  }
  return text;
}

// ---- A6 (RFC 2874 §3.1): the prefix length, the address bits after the prefix in the fewest
// whole octets, and the prefix's name when the prefix is not empty.

std::size_t a6_suffix_size(std::uint8_t prefix) { return (128u - prefix + 7u) / 8u; }

Status a6_from_text(std::span<const TextToken> tokens, std::size_t& index, const Name& origin, Rdata& out) {
  if (tokens.size() - index < 2) return token_error(index, "A6 needs a prefix length and an address or a name");
  auto prefix = parse_decimal(tokens[index].text, 128);
  if (!prefix) return token_error(index, fmt::format("bad A6 prefix length '{}'", tokens[index].text));
  out.push_back(static_cast<std::uint8_t>(*prefix));
  ++index;
  std::size_t suffix = a6_suffix_size(static_cast<std::uint8_t>(*prefix));
  if (suffix > 0) {  // a prefix of 128 bits leaves no suffix, and no address is written
    std::uint8_t address[16];
    if (inet_pton(AF_INET6, tokens[index].text.c_str(), address) != 1) {
      return token_error(index, fmt::format("bad A6 address '{}'", tokens[index].text));
    }
    out.insert(out.end(), address + 16 - suffix, address + 16);
    if (*prefix % 8 != 0) out[out.size() - suffix] &= static_cast<std::uint8_t>(0xFF >> (*prefix % 8));
    ++index;
  }
  if (*prefix == 0) return {};
  if (index >= tokens.size()) return token_error(index, "A6 with a prefix needs the prefix's name");
  auto name = Name::from_text(tokens[index].text, &origin);
  if (!name) return token_error(index, fmt::format("bad A6 prefix name '{}'", tokens[index].text));
  out.insert(out.end(), name->wire().begin(), name->wire().end());
  ++index;
  return {};
}

std::optional<std::size_t> a6_length(std::span<const std::uint8_t> rest) {
  if (rest.empty() || rest[0] > 128) return std::nullopt;
  std::size_t suffix = a6_suffix_size(rest[0]);
  if (rest.size() < 1 + suffix) return std::nullopt;
  // The prefix's bits of the first suffix octet are zero (RFC 2874 §3.1.1: "pad bits").
  if (suffix > 0 && rest[0] % 8 != 0 && (rest[1] & ~(0xFF >> (rest[0] % 8)) & 0xFF) != 0) return std::nullopt;
  if (rest[0] == 0) return rest.size() == 1 + suffix ? std::optional<std::size_t>(rest.size()) : std::nullopt;
  auto name = uncompressed_name_length(rest, 1 + suffix);
  if (!name || 1 + suffix + *name != rest.size()) return std::nullopt;
  return rest.size();
}

std::string a6_to_text(std::span<const std::uint8_t> field) {
  std::size_t suffix = a6_suffix_size(field[0]);
  std::uint8_t address[16] = {};
  std::copy_n(field.begin() + 1, suffix, address + 16 - suffix);
  char text[INET6_ADDRSTRLEN] = {};
  inet_ntop(AF_INET6, address, text, sizeof text);
  std::string out = suffix == 0 ? std::to_string(field[0]) : fmt::format("{} {}", field[0], text);
  if (field[0] != 0) {
    if (auto name = Name::from_uncompressed(field.subspan(1 + suffix))) out += " " + name->to_text();
  }
  return out;
}

// ---- ATMA: format 0 is an ATM End System Address in hex, format 1 an E.164 number in ASCII
// digits, written with a leading '+'.

Status atma_from_text(const TextToken& token, std::size_t index, Rdata& out) {
  const std::string& text = token.text;
  if (!text.empty() && text[0] == '+') {
    if (text.size() == 1 || text.find_first_not_of("0123456789", 1) != std::string::npos) {
      return token_error(index, fmt::format("bad E.164 address '{}'", text));
    }
    out.push_back(1);
    out.insert(out.end(), text.begin() + 1, text.end());
    return {};
  }
  std::string hex;
  for (char c : text) {
    if (c != '.') hex.push_back(c);
  }
  out.push_back(0);
  std::size_t before = out.size();
  if (!hex_decode(hex, out) || out.size() == before) return token_error(index, fmt::format("bad ATM address '{}'", text));
  return {};
}

std::optional<std::size_t> atma_length(std::span<const std::uint8_t> rest) {
  if (rest.size() < 2 || rest[0] > 1) return std::nullopt;
  if (rest[0] == 1) {
    for (std::uint8_t c : rest.subspan(1)) {
      if (c < '0' || c > '9') return std::nullopt;
    }
  }
  return rest.size();
}

std::string atma_to_text(std::span<const std::uint8_t> field) {
  if (field[0] == 1) return "+" + std::string(field.begin() + 1, field.end());
  return lower_hex(field.subspan(1));
}

}  // namespace

bool is_special_field(FieldKind kind) {
  switch (kind) {
    case kEui48: case kEui64: case kIlnp64: case kNsap: case kCertType: case kAlgorithm: case kProtocol:
    case kPortBitmap: case kLoc: case kAplItems: case kHip: case kIpsecGateway: case kAmtRelay:
    case kNxtBitmap: case kA6: case kAtma: case kDoaData:
      return true;
    default:
      return false;
  }
}

std::optional<std::size_t> special_field_length(FieldKind kind, std::span<const std::uint8_t> rdata,
                                                std::size_t pos) {
  if (pos > rdata.size()) return std::nullopt;
  auto rest = rdata.subspan(pos);
  auto fixed = [&](std::size_t width) { return rest.size() >= width ? std::optional<std::size_t>(width) : std::nullopt; };
  switch (kind) {
    case kEui48: return fixed(6);
    case kEui64: case kIlnp64: return fixed(8);
    case kCertType: return fixed(2);
    case kAlgorithm: case kProtocol: return fixed(1);
    case kNsap: return rest.empty() ? std::nullopt : std::optional<std::size_t>(rest.size());
    // A bitmap with trailing zero octets means the same as one without, but would not print
    // back to the same octets: such rdata is shown in the generic form instead.
    // Bits only for what text can name: ports 0 to 65535, NXT types 1 to 127.
    case kPortBitmap:
      if (rest.size() > 8192 || (!rest.empty() && rest.back() == 0)) return std::nullopt;
      return rest.size();
    case kDoaData: return rest.size();
    case kNxtBitmap:
      if (rest.size() > 16 || (!rest.empty() && (rest[0] >= 0x80 || rest.back() == 0))) return std::nullopt;
      return rest.size();
    case kA6: return a6_length(rest);
    case kAtma: return atma_length(rest);
    case kLoc: return loc_length(rest);
    case kAplItems: return apl_length(rest);
    case kHip: return hip_length(rest);
    case kIpsecGateway: return pos >= 2 ? gateway_length(rdata[pos - 2], rdata, pos) : std::nullopt;
    case kAmtRelay: {
      if (rest.empty()) return std::nullopt;
      auto relay = gateway_length(rest[0] & 0x7F, rdata, pos + 1);
      return relay ? std::optional<std::size_t>(1 + *relay) : std::nullopt;
    }
    default: return std::nullopt;
  }
}

Status special_field_from_text(FieldKind kind, std::span<const TextToken> tokens, std::size_t& index,
                               const Name& origin, Rdata& out) {
  switch (kind) {
    case kPortBitmap: return ports_from_text(tokens, index, out);
    case kLoc: return loc_from_text(tokens, index, out);
    case kAplItems: return apl_from_text(tokens, index, out);
    case kHip: return hip_from_text(tokens, index, origin, out);
    case kAmtRelay: return amt_relay_from_text(tokens, index, origin, out);
    case kNxtBitmap: return nxt_bitmap_from_text(tokens, index, out);
    case kA6: return a6_from_text(tokens, index, origin, out);
    default: break;
  }
  if (index >= tokens.size()) return token_error(index, "missing rdata field");
  const TextToken& token = tokens[index];
  std::size_t at = index++;
  switch (kind) {
    case kEui48: case kEui64: return eui_from_text(kind, token, at, out);
    case kIlnp64: return ilnp_from_text(token, at, out);
    case kNsap: return nsap_from_text(token, at, out);
    case kAtma: return atma_from_text(token, at, out);
    case kDoaData:
      if (token.text == "-") return {};
      if (!base64_decode(token.text, out)) return token_error(at, "bad base64 data");
      return {};
    case kIpsecGateway:
      if (out.size() < 2) return token_error(at, "gateway without a type");
      return gateway_from_text(out[out.size() - 2], token, at, origin, out);
    case kCertType: case kAlgorithm: case kProtocol: {
      auto value = kind == kCertType    ? number_or_mnemonic(kCertTypes, token.text, 0xFFFF)
                   : kind == kAlgorithm ? number_or_mnemonic(kAlgorithms, token.text, 0xFF)
                                        : number_or_mnemonic(kProtocols, token.text, 0xFF);
      if (!value) return token_error(at, fmt::format("bad number or mnemonic '{}'", token.text));
      if (kind == kCertType) out.push_back(static_cast<std::uint8_t>(*value >> 8));
      out.push_back(static_cast<std::uint8_t>(*value));
      return {};
    }
    default: return token_error(at, "not a special field");
  }
}

std::string special_field_to_text(FieldKind kind, std::span<const std::uint8_t> field,
                                  std::span<const std::uint8_t> before) {
  switch (kind) {
    case kEui48: case kEui64: return eui_to_text(field);
    case kIlnp64: return ilnp_to_text(field);
    case kNsap: return "0x" + lower_hex(field);
    case kCertType: return std::to_string((field[0] << 8) | field[1]);
    case kAlgorithm: case kProtocol: return std::to_string(field[0]);
    case kPortBitmap: return ports_to_text(field);
    case kLoc: return loc_to_text(field);
    case kAplItems: return apl_to_text(field);
    case kHip: return hip_to_text(field);
    case kNxtBitmap: return nxt_bitmap_to_text(field);
    case kA6: return a6_to_text(field);
    case kAtma: return atma_to_text(field);
    case kDoaData: return field.empty() ? std::string("-") : base64_encode(field);
    case kIpsecGateway: return gateway_to_text(before.size() >= 2 ? before[before.size() - 2] : 0, field);
    case kAmtRelay:
      return fmt::format("{} {} {}", field[0] >> 7, field[0] & 0x7F, gateway_to_text(field[0] & 0x7F, field.subspan(1)));
    default: return {};
  }
}

}  // namespace cutover::dns
