// The lint rules (docs/tools.md, "cutover lint ZONEFILE": TTL policy, negative-caching and delegation traps) with their
// default severity and reason, and the YAML file that turns rules off or re-levels them.
// Immutable rule table; LintConfig is a plain value.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "dns/name.h"
#include "tools/report/finding.h"

namespace cutover::tools {

struct LintRule {
  std::string_view id;
  Severity default_severity;
  std::string_view summary;  // what the rule checks
  std::string_view basis;    // where the threshold comes from
};

std::span<const LintRule> lint_rules();
const LintRule* find_lint_rule(std::string_view id);

struct LintThresholds {
  std::uint32_t general_min_ttl = 3600;   // docs/tools.md#ttl-guidance: general records 1 h or more
  std::uint32_t ns_mx_min_ttl = 3600;     // docs/tools.md#ttl-guidance: NS and MX 1 h to 1 day
  std::uint32_t ns_mx_max_ttl = 86400;
  std::uint32_t pool_max_ttl = 300;       // names answered by health-checked pools
  std::uint32_t negative_max_ttl = 10800; // RFC 2308 §5: cap negative caching at 1-3 h
  std::uint32_t negative_min_ttl = 30;
};

struct LintConfig {
  // Per rule: a severity, or nullopt when the rule is off. Rules not listed keep their default.
  std::map<std::string, std::optional<Severity>, std::less<>> levels;
  std::vector<dns::Name> pool_names;  // absolute names whose records pools answer
  LintThresholds thresholds;

  // The severity a finding of `rule` gets, or nullopt when the rule is disabled.
  std::optional<Severity> level_of(std::string_view rule) const;
};

// YAML:
//   rules: { ttl-short: off, ns-mx-ttl-range: error }
//   pools: [app.example.test.]            # relative names are taken from `origin`
//   thresholds: { general_min_ttl: 1800 }
// Unknown rules, levels or keys are errors, so a typo does not silently disable nothing.
base::Result<LintConfig> load_lint_config(const std::string& path, const dns::Name& origin);
base::Result<LintConfig> parse_lint_config(std::string_view yaml, const dns::Name& origin);

}  // namespace cutover::tools
