// YamlReader: the strict reading primitives shared by the config schema files: every
// mapping checked against its known keys, every value against its type, every problem a
// ConfigError "FILE:LINE:COL: path.to.key: message". For the config schema readers: src/config,
// src/pool/config and src/monitor (monitor.yaml). Stateless apart from its label and base
// directory; thread-compatible.
#pragma once

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <initializer_list>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "config/config.h"

namespace cutover::config {

class YamlReader {
 public:
  YamlReader(std::string label, std::string base_dir) : label_(std::move(label)), base_dir_(std::move(base_dir)) {}

  const std::string& label() const { return label_; }
  const std::string& base_dir() const { return base_dir_; }

  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& path, const std::string& message) const {
    if (mark.is_null()) throw ConfigError(fmt::format("{}: {}: {}", label_, path, message));
    throw ConfigError(fmt::format("{}:{}:{}: {}: {}", label_, mark.line + 1, mark.column + 1, path, message));
  }

  // Calls `visit(key, value, path)` for each entry after checking the key is allowed.
  template <typename Visit>
  void each_entry(const YAML::Node& node, const std::string& path, std::initializer_list<std::string_view> allowed,
                  Visit visit) const {
    each_entry(node, path, std::vector<std::string>(allowed.begin(), allowed.end()), visit);
  }

  // The same over keys known only at run time (those of the registered probe types and shapes).
  template <typename Visit>
  void each_entry(const YAML::Node& node, const std::string& path, const std::vector<std::string>& allowed,
                  Visit visit) const {
    if (node.IsNull()) return;
    if (!node.IsMap()) fail(node.Mark(), path, "expected a mapping");
    std::set<std::string> seen;
    for (const auto& entry : node) {
      std::string key = entry.first.Scalar();
      std::string key_path = path.empty() ? key : path + "." + key;
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        fail(entry.first.Mark(), key_path, "unknown key (expected one of: " + join(allowed) + ")");
      }
      if (!seen.insert(key).second) fail(entry.first.Mark(), key_path, "duplicate key");
      visit(key, entry.second, key_path);
    }
  }

  std::string scalar(const YAML::Node& node, const std::string& path) const {
    if (!node.IsScalar()) fail(node.Mark(), path, "expected a single value");
    return node.Scalar();
  }

  bool boolean(const YAML::Node& node, const std::string& path) const {
    bool value = false;
    if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) fail(node.Mark(), path, "expected true or false");
    return value;
  }

  // A whole number in [min, max].
  std::size_t number(const YAML::Node& node, const std::string& path, std::size_t min, std::size_t max) const {
    std::string text = scalar(node, path);
    std::size_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max) {
      fail(node.Mark(), path, fmt::format("expected a whole number from {} to {}", min, max));
    }
    return value;
  }

  std::size_t count(const YAML::Node& node, const std::string& path, std::size_t max) const {
    return number(node, path, 1, max);
  }

  std::chrono::milliseconds duration(const YAML::Node& node, const std::string& path) const {
    auto value = parse_duration(scalar(node, path));
    if (!value || value->count() == 0) fail(node.Mark(), path, "expected a positive duration like 10s, 500ms or 14d");
    return *value;
  }

  dns::Name name(const YAML::Node& node, const std::string& path, const dns::Name* origin) const {
    std::string text = scalar(node, path);
    if (origin != nullptr && text == "@") return *origin;
    if (origin == nullptr && (text.empty() || text.back() != '.')) text.push_back('.');
    auto parsed = dns::Name::from_text(text, origin);
    if (!parsed) fail(node.Mark(), path, "invalid domain name: " + parsed.error().message);
    return *parsed;
  }

  std::string path_value(const YAML::Node& node, const std::string& path) const {
    std::string text = scalar(node, path);
    if (text.empty()) fail(node.Mark(), path, "expected a file path");
    std::filesystem::path file(text);
    return file.is_absolute() ? text : (std::filesystem::path(base_dir_) / file).lexically_normal().string();
  }

  static std::string join(const std::vector<std::string>& words) {
    std::string out;
    for (auto word : words) {
      if (!out.empty()) out += ", ";
      out += word;
    }
    return out;
  }

 protected:
  std::string label_;
  std::string base_dir_;
};

}  // namespace cutover::config
