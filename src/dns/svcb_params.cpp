// SvcParams codec: each known key has a value layout, unknown keys are opaque octets.
#include "dns/svcb_params.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/load.h"
#include "dns/base_encoding.h"
#include "dns/text_codec.h"

namespace cutover::dns {
namespace {

using base::ErrorCode;
using base::make_error;
using base::Status;

enum SvcKey : std::uint16_t {
  kMandatory = 0, kAlpn = 1, kNoDefaultAlpn = 2, kPort = 3, kIpv4Hint = 4, kEch = 5, kIpv6Hint = 6,
  kInvalidKey = 65535,
};

constexpr std::array<std::string_view, 7> kKeyNames = {"mandatory", "alpn", "no-default-alpn", "port",
                                                       "ipv4hint",  "ech",  "ipv6hint"};

struct Param {
  std::uint16_t key;
  Rdata value;
};

std::string key_to_text(std::uint16_t key) {
  return key < kKeyNames.size() ? std::string(kKeyNames[key]) : fmt::format("key{}", key);
}

std::optional<std::uint16_t> key_from_text(std::string_view text) {
  for (std::size_t i = 0; i < kKeyNames.size(); ++i) {
    if (kKeyNames[i] == text) return static_cast<std::uint16_t>(i);
  }
  if (text.size() > 3 && text.substr(0, 3) == "key") {
    auto number = parse_decimal(text.substr(3), 65534);
    if (number) return static_cast<std::uint16_t>(*number);
  }
  return std::nullopt;
}

bool value_valid(std::uint16_t key, std::span<const std::uint8_t> value) {
  switch (key) {
    case kMandatory: {
      if (value.empty() || value.size() % 2 != 0) return false;
      int previous = -1;
      for (std::size_t i = 0; i < value.size(); i += 2) {
        int listed = base::load_u16(value.data() + i);
        // RFC 9460 §8: strictly increasing, never `mandatory` itself; and never the reserved
        // key 65535 (§14.3.2), which cannot appear in the RR and has no presentation name.
        if (listed <= previous || listed == kMandatory || listed == kInvalidKey) return false;
        previous = listed;
      }
      return true;
    }
    case kAlpn: {
      if (value.empty()) return false;
      std::size_t pos = 0;
      while (pos < value.size()) {
        if (value[pos] == 0) return false;
        pos += 1 + value[pos];
      }
      return pos == value.size();
    }
    case kNoDefaultAlpn: return value.empty();
    case kPort: return value.size() == 2;
    case kIpv4Hint: return !value.empty() && value.size() % 4 == 0;
    case kIpv6Hint: return !value.empty() && value.size() % 16 == 0;
    default: return true;
  }
}

// Splits a decoded value list on commas; "\," and "\\" stand for themselves (RFC 9460 App. A.1).
std::vector<std::string> split_value_list(std::string_view text) {
  std::vector<std::string> items(1);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      items.back().push_back(text[++i]);
    } else if (text[i] == ',') {
      items.emplace_back();
    } else {
      items.back().push_back(text[i]);
    }
  }
  return items;
}

std::string addresses_to_text(std::span<const std::uint8_t> value, int family, std::size_t width) {
  std::string text;
  char buffer[INET6_ADDRSTRLEN];
  for (std::size_t pos = 0; pos + width <= value.size(); pos += width) {
    if (!text.empty()) text.push_back(',');
    if (inet_ntop(family, value.data() + pos, buffer, sizeof buffer) != nullptr) text.append(buffer);
  }
  return text;
}

std::string value_to_text(std::uint16_t key, std::span<const std::uint8_t> value) {
  switch (key) {
    case kMandatory: {
      std::string text;
      for (std::size_t i = 0; i < value.size(); i += 2) {
        if (!text.empty()) text.push_back(',');
        text.append(key_to_text(base::load_u16(value.data() + i)));
      }
      return text;
    }
    case kAlpn: {
      std::vector<std::uint8_t> list;
      for (std::size_t pos = 0; pos < value.size(); pos += 1 + value[pos]) {
        if (!list.empty()) list.push_back(',');
        for (std::size_t i = pos + 1; i <= pos + value[pos]; ++i) {
          if (value[i] == ',' || value[i] == '\\') list.push_back('\\');
          list.push_back(value[i]);
        }
      }
      std::string text;
      append_quoted(list, text);
      return text;
    }
    case kPort: return fmt::format("{}", base::load_u16(value.data()));
    case kIpv4Hint: return addresses_to_text(value, AF_INET, 4);
    case kIpv6Hint: return addresses_to_text(value, AF_INET6, 16);
    case kEch: return base64_encode(value);
    default: {
      std::string text;
      append_quoted(value, text);
      return text;
    }
  }
}

base::Error param_error(std::size_t index, std::string message) {
  return make_error(ErrorCode::kMalformed, std::move(message), index);
}

bool append_addresses(std::string_view text, int family, std::size_t width, Rdata& out) {
  for (const std::string& item : split_value_list(text)) {
    std::uint8_t bytes[16];
    if (inet_pton(family, item.c_str(), bytes) != 1) return false;
    out.insert(out.end(), bytes, bytes + width);
  }
  return true;
}

// Encodes a decoded presentation value; false when it does not fit the key's layout.
bool value_from_text(std::uint16_t key, const std::optional<std::string>& text, Rdata& out) {
  if (key == kNoDefaultAlpn) return !text || text->empty();
  std::string value = text.value_or("");
  switch (key) {
    case kMandatory: {
      std::vector<std::uint16_t> keys;
      for (const std::string& item : split_value_list(value)) {
        auto listed = key_from_text(item);
        if (!listed) return false;
        keys.push_back(*listed);
      }
      std::sort(keys.begin(), keys.end());
      for (std::uint16_t listed : keys) base::ByteWriter(out).write_u16(listed);
      break;
    }
    case kAlpn:
      for (const std::string& id : split_value_list(value)) {
        if (id.empty() || id.size() > 255) return false;
        out.push_back(static_cast<std::uint8_t>(id.size()));
        out.insert(out.end(), id.begin(), id.end());
      }
      break;
    case kPort: {
      auto port = parse_decimal(value, 0xFFFF);
      if (!port) return false;
      base::ByteWriter(out).write_u16(static_cast<std::uint16_t>(*port));
      break;
    }
    case kIpv4Hint:
      if (!append_addresses(value, AF_INET, 4, out)) return false;
      break;
    case kIpv6Hint:
      if (!append_addresses(value, AF_INET6, 16, out)) return false;
      break;
    case kEch:
      if (!base64_decode(value, out)) return false;
      break;
    default: out.insert(out.end(), value.begin(), value.end());
  }
  return value_valid(key, out);
}

}  // namespace

bool svc_params_valid(std::span<const std::uint8_t> params) {
  std::size_t pos = 0;
  int previous = -1;
  while (pos < params.size()) {
    if (params.size() - pos < 4) return false;
    int key = base::load_u16(params.data() + pos);
    std::size_t length = base::load_u16(params.data() + pos + 2);
    if (key <= previous || key == kInvalidKey || params.size() - pos - 4 < length) return false;
    if (!value_valid(static_cast<std::uint16_t>(key), params.subspan(pos + 4, length))) return false;
    previous = key;
    pos += 4 + length;
  }
  return true;
}

std::string svc_params_to_text(std::span<const std::uint8_t> params) {
  std::string text;
  for (std::size_t pos = 0; pos + 4 <= params.size();) {
    std::uint16_t key = base::load_u16(params.data() + pos);
    std::size_t length = std::min<std::size_t>(base::load_u16(params.data() + pos + 2), params.size() - pos - 4);
    auto value = params.subspan(pos + 4, length);
    if (!text.empty()) text.push_back(' ');
    text.append(key_to_text(key));
    // Keys without a value print bare, as BIND does for no-default-alpn and empty keyNNNNN.
    if (!value.empty()) text.append("=" + value_to_text(key, value));
    pos += 4 + length;
  }
  return text;
}

Status svc_params_from_text(std::span<const TextToken> tokens, std::size_t& index, Rdata& out) {
  std::vector<Param> params;
  for (; index < tokens.size(); ++index) {
    const TextToken& token = tokens[index];
    std::size_t at = index;
    if (token.quoted) return param_error(at, "SvcParam value without a key");
    std::string_view text = token.text;
    std::size_t equals = text.find('=');
    auto key = key_from_text(text.substr(0, equals));
    if (!key) return param_error(at, fmt::format("unknown SvcParamKey '{}'", text.substr(0, equals)));
    std::optional<std::string> value;
    if (equals != std::string_view::npos) {
      std::string_view raw = text.substr(equals + 1);
      if (raw.empty() && index + 1 < tokens.size() && tokens[index + 1].quoted) {
        raw = tokens[++index].text;
      } else if (raw.size() >= 2 && raw.front() == '"' && raw.back() == '"') {
        raw = raw.substr(1, raw.size() - 2);
      }
      value.emplace();
      if (!decode_escapes(raw, *value)) return param_error(at, "bad escape in SvcParam value");
    }
    Param param{*key, {}};
    if (!value_from_text(*key, value, param.value) || param.value.size() > 0xFFFF) {
      return param_error(at, fmt::format("bad value for SvcParamKey '{}'", key_to_text(*key)));
    }
    params.push_back(std::move(param));
  }
  std::sort(params.begin(), params.end(), [](const Param& a, const Param& b) { return a.key < b.key; });
  for (std::size_t i = 1; i < params.size(); ++i) {
    if (params[i].key == params[i - 1].key) {
      return param_error(index, fmt::format("duplicate SvcParamKey '{}'", key_to_text(params[i].key)));
    }
  }
  base::ByteWriter writer(out);
  for (const Param& param : params) {
    writer.write_u16(param.key);
    writer.write_u16(static_cast<std::uint16_t>(param.value.size()));
    writer.write_bytes(param.value);
  }
  return {};
}

}  // namespace cutover::dns
