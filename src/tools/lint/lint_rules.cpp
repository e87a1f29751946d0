// Rule table and the lint configuration file.
#include "tools/lint/lint_rules.h"

#include <array>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace cutover::tools {
namespace {

using base::ErrorCode;
using base::make_error;

const std::array<LintRule, 11> kRules = {{
    {"parse-error", Severity::kError, "the zone file does not parse or load cleanly", "zone loader"},
    {"ttl-zero", Severity::kError, "TTL 0: every lookup goes to the authoritative",
     "docs/tools.md#ttl-guidance: avoid TTL 0"},
    {"ttl-short", Severity::kWarning, "general record with a TTL under 1 h",
     "docs/tools.md#ttl-guidance, RFC 9199: general records 1 h or more"},
    {"ns-mx-ttl-range", Severity::kWarning, "NS or MX TTL outside 1 h to 1 day", "docs/tools.md#ttl-guidance"},
    {"pool-ttl-long", Severity::kWarning, "a name answered by a pool has a TTL above 300 s",
     "docs/tools.md#ttl-guidance: failover needs a short TTL all the time"},
    {"negative-ttl-long", Severity::kWarning, "negative TTL min(SOA TTL, MINIMUM) over 3 h",
     "RFC 2308 §5, docs/tools.md#ttl-guidance"},
    {"negative-ttl-short", Severity::kWarning, "negative TTL min(SOA TTL, MINIMUM) under 30 s",
     "docs/tools.md#ttl-guidance: more queries for names that do not exist"},
    {"rrset-ttl-mismatch", Severity::kWarning, "members of one RRset have different TTLs",
     "RFC 2181 §5.2: servers use the lowest, resolvers may disagree"},
    {"glue-ttl-above-ns", Severity::kWarning, "in-bailiwick name server address TTL above the NS TTL",
     "RFC 9199 §3.6.2, docs/tools.md#ttl-guidance"},
    {"cname-at-apex", Severity::kError, "CNAME at the zone apex", "RFC 1034 §3.6.2: a CNAME excludes SOA and NS"},
    {"wildcard-shadowing", Severity::kWarning, "an explicit name hides a wildcard for types it does not have",
     "RFC 4592 §2.2: existing names (and empty non-terminals) do not match the wildcard"},
}};

base::Error config_error(const std::string& where, const std::string& what) {
  return make_error(ErrorCode::kInvalidArgument, fmt::format("{}: {}", where, what));
}

}  // namespace

std::span<const LintRule> lint_rules() { return kRules; }

const LintRule* find_lint_rule(std::string_view id) {
  for (const auto& rule : kRules) {
    if (rule.id == id) return &rule;
  }
  return nullptr;
}

std::optional<Severity> LintConfig::level_of(std::string_view rule) const {
  if (auto it = levels.find(rule); it != levels.end()) return it->second;
  if (const auto* known = find_lint_rule(rule)) return known->default_severity;
  return Severity::kWarning;
}

base::Result<LintConfig> parse_lint_config(std::string_view yaml, const dns::Name& origin) {
  LintConfig config;
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return make_error(ErrorCode::kMalformed, fmt::format("lint config: {}", e.what()));
  }
  if (root.IsNull()) return config;
  if (!root.IsMap()) return config_error("lint config", "must be a mapping");
  for (const auto& entry : root) {
    const std::string key = entry.first.as<std::string>();
    const YAML::Node& value = entry.second;
    if (key == "rules") {
      if (!value.IsMap()) return config_error("rules", "must map rule ids to off, info, warning or error");
      for (const auto& rule : value) {
        const std::string id = rule.first.as<std::string>();
        if (!find_lint_rule(id)) return config_error("rules." + id, "unknown rule");
        const std::string level = rule.second.as<std::string>();
        Severity severity;
        if (level == "off" || level == "false") {
          config.levels[id] = std::nullopt;
        } else if (severity_from_text(level, severity)) {
          config.levels[id] = severity;
        } else {
          return config_error("rules." + id, "level '" + level + "' is not off, info, warning or error");
        }
      }
    } else if (key == "pools") {
      if (!value.IsSequence()) return config_error("pools", "must be a list of names");
      for (const auto& item : value) {
        auto name = dns::Name::from_text(item.as<std::string>(), &origin);
        if (!name) return config_error("pools", name.error().message);
        config.pool_names.push_back(*name);
      }
    } else if (key == "thresholds") {
      if (!value.IsMap()) return config_error("thresholds", "must be a mapping");
      auto& t = config.thresholds;
      for (const auto& item : value) {
        const std::string name = item.first.as<std::string>();
        std::uint32_t* target = name == "general_min_ttl"    ? &t.general_min_ttl
                                : name == "ns_mx_min_ttl"    ? &t.ns_mx_min_ttl
                                : name == "ns_mx_max_ttl"    ? &t.ns_mx_max_ttl
                                : name == "pool_max_ttl"     ? &t.pool_max_ttl
                                : name == "negative_max_ttl" ? &t.negative_max_ttl
                                : name == "negative_min_ttl" ? &t.negative_min_ttl
                                                             : nullptr;
        if (!target) return config_error("thresholds." + name, "unknown threshold");
        try {
          *target = item.second.as<std::uint32_t>();
        } catch (const YAML::Exception&) {
          return config_error("thresholds." + name, "must be a number of seconds");
        }
      }
    } else {
      return config_error(key, "unknown key (expected rules, pools, thresholds)");
    }
  }
  return config;
}

base::Result<LintConfig> load_lint_config(const std::string& path, const dns::Name& origin) {
  std::ifstream in(path);
  if (!in) return make_error(ErrorCode::kIo, fmt::format("{}: cannot open", path));
  std::stringstream text;
  text << in.rdbuf();
  auto config = parse_lint_config(text.str(), origin);
  if (!config) return make_error(config.error().code, path + ": " + config.error().message);
  return config;
}

}  // namespace cutover::tools
