// Reading the writes/replication config keys, checking the key names zones use, and address
// ACL matching.
#include "config/replication.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <charconv>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "config/config.h"
#include "dns/base_encoding.h"

namespace cutover::config {
namespace {

[[noreturn]] void fail(const std::string& label, const YAML::Node& node, const std::string& path,
                       const std::string& message) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) throw ConfigError(fmt::format("{}: {}: {}", label, path, message));
  throw ConfigError(fmt::format("{}:{}:{}: {}: {}", label, mark.line + 1, mark.column + 1, path, message));
}

std::string scalar(const std::string& label, const YAML::Node& node, const std::string& path) {
  if (!node.IsScalar()) fail(label, node, path, "expected a single value");
  return node.Scalar();
}

// A scalar or a sequence of scalars, as a list.
std::vector<std::pair<std::string, YAML::Node>> scalars(const std::string& label, const YAML::Node& node,
                                                        const std::string& path) {
  std::vector<std::pair<std::string, YAML::Node>> out;
  if (node.IsScalar()) {
    out.emplace_back(node.Scalar(), node);
    return out;
  }
  if (!node.IsSequence()) fail(label, node, path, "expected a value or a list of values");
  for (std::size_t i = 0; i < node.size(); ++i) out.emplace_back(scalar(label, node[i], fmt::format("{}[{}]", path, i)), node[i]);
  return out;
}

dns::Name absolute_name(const std::string& label, const YAML::Node& node, const std::string& path) {
  std::string text = scalar(label, node, path);
  if (text.empty() || text.back() != '.') text.push_back('.');
  auto name = dns::Name::from_text(text);
  if (!name) fail(label, node, path, "invalid name: " + name.error().message);
  return name->lowercased();
}

std::optional<AddressPrefix> parse_prefix(std::string_view text) {
  AddressPrefix prefix;
  std::string address(text.substr(0, text.find('/')));
  if (::inet_pton(AF_INET, address.c_str(), prefix.bytes) == 1) {
    prefix.family = AF_INET;
    prefix.bits = 32;
  } else if (::inet_pton(AF_INET6, address.c_str(), prefix.bytes) == 1) {
    prefix.family = AF_INET6;
    prefix.bits = 128;
  } else {
    return std::nullopt;
  }
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    unsigned bits = 0;
    auto digits = text.substr(slash + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), bits);
    if (ec != std::errc() || end != digits.data() + digits.size() || bits > prefix.bits) return std::nullopt;
    prefix.bits = bits;
  }
  return prefix;
}

// `allow-update`: a key name, or a list whose items are key names or {key, allow-empty}.
std::vector<UpdateKeyPolicy> update_policies(const std::string& label, const YAML::Node& node, const std::string& path) {
  std::vector<UpdateKeyPolicy> out;
  if (node.IsScalar()) {
    out.push_back({absolute_name(label, node, path).to_text(), false});
    return out;
  }
  if (!node.IsSequence()) fail(label, node, path, "expected a key name or a list of key names and {key, allow-empty} mappings");
  for (std::size_t i = 0; i < node.size(); ++i) {
    const YAML::Node& item = node[i];
    std::string item_path = fmt::format("{}[{}]", path, i);
    UpdateKeyPolicy policy;
    if (item.IsScalar()) {
      policy.key = absolute_name(label, item, item_path).to_text();
    } else if (item.IsMap()) {
      for (const auto& entry : item) {
        std::string name = entry.first.Scalar();
        if (name != "key" && name != "allow-empty") {
          fail(label, entry.first, item_path + "." + name, "unknown key (expected one of: key, allow-empty)");
        }
      }
      if (!item["key"]) fail(label, item, item_path, "missing required key 'key' (the TSIG key's name)");
      policy.key = absolute_name(label, item["key"], item_path + ".key").to_text();
      if (item["allow-empty"]) {
        std::string flag = scalar(label, item["allow-empty"], item_path + ".allow-empty");
        if (flag != "true" && flag != "false") fail(label, item["allow-empty"], item_path + ".allow-empty", "expected true or false");
        policy.allow_empty = flag == "true";
      }
    } else {
      fail(label, item, item_path, "expected a key name or a mapping {key: NAME, allow-empty: true}");
    }
    for (const auto& other : out) {
      if (other.key == policy.key) fail(label, item, item_path, "key " + policy.key + " is listed twice");
    }
    out.push_back(std::move(policy));
  }
  return out;
}

}  // namespace

bool prefix_matches(const AddressPrefix& prefix, const sockaddr_storage& address) {
  const std::uint8_t* bytes = nullptr;
  if (address.ss_family != prefix.family) return false;
  if (address.ss_family == AF_INET) {
    bytes = reinterpret_cast<const std::uint8_t*>(&reinterpret_cast<const sockaddr_in&>(address).sin_addr);
  } else {
    bytes = reinterpret_cast<const std::uint8_t*>(&reinterpret_cast<const sockaddr_in6&>(address).sin6_addr);
  }
  unsigned whole = prefix.bits / 8;
  if (std::memcmp(bytes, prefix.bytes, whole) != 0) return false;
  unsigned rest = prefix.bits % 8;
  if (rest == 0) return true;
  auto mask = static_cast<std::uint8_t>(0xFF << (8 - rest));
  return (bytes[whole] & mask) == (prefix.bytes[whole] & mask);
}

bool acl_allows(const std::vector<AddressPrefix>& acl, const sockaddr_storage& address) {
  for (const auto& prefix : acl) {
    if (prefix_matches(prefix, address)) return true;
  }
  return false;
}

void read_writes(const YAML::Node& node, const std::string& path, const std::string& label,
                 const std::string& base_dir, WritesConfig& out) {
  if (!node.IsMap()) fail(label, node, path, "expected a mapping with journal and tsig-keys");
  for (const auto& entry : node) {
    std::string key = entry.first.Scalar();
    std::string key_path = path + "." + key;
    if (key == "journal") {
      std::filesystem::path file(scalar(label, entry.second, key_path));
      out.journal = file.is_absolute() ? file.string() : (std::filesystem::path(base_dir) / file).lexically_normal().string();
    } else if (key == "tsig-keys") {
      if (!entry.second.IsSequence()) fail(label, entry.second, key_path, "expected a list of keys");
      for (std::size_t i = 0; i < entry.second.size(); ++i) {
        const YAML::Node& item = entry.second[i];
        std::string item_path = fmt::format("{}[{}]", key_path, i);
        if (!item.IsMap() || !item["name"] || !item["algorithm"] || !item["secret"] || item.size() != 3) {
          fail(label, item, item_path, "expected exactly name, algorithm and secret");
        }
        TsigKeyConfig key_config;
        key_config.name = absolute_name(label, item["name"], item_path + ".name");
        key_config.algorithm = absolute_name(label, item["algorithm"], item_path + ".algorithm");
        std::string algorithm = key_config.algorithm.to_text();
        if (algorithm != "hmac-sha256." && algorithm != "hmac-sha512.") {
          fail(label, item["algorithm"], item_path + ".algorithm", "expected hmac-sha256 or hmac-sha512");
        }
        if (!dns::base64_decode(scalar(label, item["secret"], item_path + ".secret"), key_config.secret) ||
            key_config.secret.empty()) {
          fail(label, item["secret"], item_path + ".secret", "expected a base64 secret");
        }
        for (const auto& other : out.keys) {
          if (other.name == key_config.name) fail(label, item, item_path, "key " + other.name.to_text() + " is listed twice");
        }
        out.keys.push_back(std::move(key_config));
      }
    } else {
      fail(label, entry.first, key_path, "unknown key (expected one of: journal, tsig-keys)");
    }
  }
}

bool read_zone_replication(const std::string& key, const YAML::Node& value, const std::string& path,
                           const std::string& label, ZoneReplicationConfig& out) {
  if (key == "notify") {
    for (const auto& [text, node] : scalars(label, value, path)) {
      auto address = net::parse_socket_address(text);
      if (!address) fail(label, node, path, address.error().message);
      out.notify.push_back(*address);
    }
  } else if (key == "allow-transfer") {
    for (const auto& [text, node] : scalars(label, value, path)) {
      auto prefix = parse_prefix(text);
      if (!prefix) fail(label, node, path, "expected an address or address/prefix-length, got '" + text + "'");
      out.allow_transfer.push_back(*prefix);
    }
  } else if (key == "transfer-key") {
    out.transfer_key = absolute_name(label, value, path).to_text();
  } else if (key == "allow-update") {
    out.allow_update = update_policies(label, value, path);
  } else if (key == "primary") {
    auto address = net::parse_socket_address(scalar(label, value, path));
    if (!address) fail(label, value, path, address.error().message);
    out.primary = *address;
  } else if (key == "primary-key") {
    out.primary_key = absolute_name(label, value, path).to_text();
  } else if (key == "forward-updates") {
    std::string flag = scalar(label, value, path);
    if (flag != "true" && flag != "false") fail(label, value, path, "expected true or false, got '" + flag + "'");
    out.forward_updates = flag == "true";
  } else if (key == "max-transfer-bytes") {
    std::string text = scalar(label, value, path);
    std::size_t bytes = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), bytes);
    if (ec != std::errc() || end != text.data() + text.size() || bytes < 512) {
      fail(label, value, path, "expected a number of bytes of at least 512, got '" + text + "'");
    }
    out.max_transfer_bytes = bytes;
  } else {
    return false;
  }
  return true;
}

void check_zone_keys(const Config& config) {
  auto check_known = [&config](const std::string& zone, const std::string& name) {
    auto parsed = dns::Name::from_text(name);
    bool known = false;
    for (const auto& key : config.writes.keys) known = known || (parsed && key.name == *parsed);
    if (!known) throw ConfigError("zone " + zone + ": TSIG key " + name + " is not defined in writes.tsig-keys");
  };
  for (const auto& zone : config.zones) {
    std::string zone_text = zone.origin.lowercased().to_text();
    const auto& r = zone.replication;
    if (!r.transfer_key.empty()) check_known(zone_text, r.transfer_key);
    if (r.primary && !r.allow_update.empty()) {
      throw ConfigError("zone " + zone_text +
                        ": allow-update on a secondary zone; its primary applies updates: set forward-updates: true "
                        "to relay them there (RFC 2136 §6), and allow-update on the primary");
    }
    for (const auto& policy : r.allow_update) check_known(zone_text, policy.key);
  }
  for (const auto& zone : config.zones) {
    const auto& r = zone.replication;
    if (r.primary && !r.primary_key.empty()) check_known(zone.origin.lowercased().to_text(), r.primary_key);
  }
}

std::string secondary_placeholder_text() { return "@ 0 IN SOA invalid. invalid. 0 0 0 0 0\n@ 0 IN NS invalid.\n"; }

}  // namespace cutover::config
