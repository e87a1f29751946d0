// Unit tests for zone lint: each rule fires on a zone that has the problem, stays quiet on a
// clean zone, and the config file turns rules off and re-levels them.
#include "tools/lint/lint.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "tools/lint/lint_output.h"

namespace cutover::tools {
namespace {

dns::Name origin() { return *dns::Name::from_text("example.test."); }

constexpr const char* kCleanZone = R"($TTL 3600
@     IN SOA ns1 hostmaster 1 7200 900 1209600 300
@     IN NS  ns1
@     IN NS  ns2.provider.test.
@     IN MX  10 mail
ns1   IN A   192.0.2.53
mail  IN A   192.0.2.25
www   IN A   192.0.2.80
app 60 IN A  192.0.2.10
)";

LintReport lint_text(const std::string& text, const LintConfig& config = {}) {
  zone::ParseResult parsed = zone::parse_master_text(origin(), text, "zone.txt");
  return lint_parsed_zone(origin(), parsed, "zone.txt", config);
}

std::vector<std::string> rules_of(const LintReport& report) {
  std::vector<std::string> rules;
  for (const auto& finding : report.findings) rules.push_back(finding.rule);
  return rules;
}

bool has_rule(const LintReport& report, const std::string& rule) {
  auto rules = rules_of(report);
  return std::find(rules.begin(), rules.end(), rule) != rules.end();
}

LintConfig with_pool(const char* name) {
  LintConfig config;
  config.pool_names.push_back(*dns::Name::from_text(name, nullptr));
  return config;
}

TEST(LintTest, CleanZoneWithPoolNameHasNoFindings) {
  auto report = lint_text(kCleanZone, with_pool("app.example.test."));
  EXPECT_TRUE(report.findings.empty()) << lint_to_text(report);
  EXPECT_EQ(exit_code_for(report.findings), ExitCode::kOk);
}

struct RuleCase {
  const char* rule;
  const char* extra;  // lines appended to the clean zone
  std::uint32_t line;
};

const RuleCase kRuleCases[] = {
    {"ttl-zero", "zero 0 IN A 192.0.2.1\n", 10},
    {"ttl-short", "short 300 IN A 192.0.2.1\n", 10},
    {"ns-mx-ttl-range", "sub 172800 IN NS ns.elsewhere.test.\n", 10},
    {"rrset-ttl-mismatch", "pair 3600 IN A 192.0.2.1\npair 7200 IN A 192.0.2.2\n", 11},
    {"glue-ttl-above-ns", "child 3600 IN NS ns.child\nns.child 86400 IN A 192.0.2.9\n", 11},
    {"wildcard-shadowing", "*.svc IN A 192.0.2.7\napi.svc IN TXT \"hello\"\n", 10},
};

TEST(LintTest, EachRuleFiresOnItsProblemAtTheRightLine) {
  for (const auto& c : kRuleCases) {
    SCOPED_TRACE(c.rule);
    auto report = lint_text(std::string(kCleanZone) + c.extra, with_pool("app.example.test."));
    auto it = std::find_if(report.findings.begin(), report.findings.end(),
                           [&](const Finding& f) { return f.rule == c.rule; });
    ASSERT_NE(it, report.findings.end()) << lint_to_text(report);
    EXPECT_EQ(it->line, c.line);
    EXPECT_FALSE(it->message.empty());
  }
}

TEST(LintTest, PoolNameAboveLimitAndShortTtlWithoutPool) {
  EXPECT_TRUE(has_rule(lint_text(std::string(kCleanZone) + "pool 600 IN A 192.0.2.1\n", with_pool("pool.example.test.")),
                       "pool-ttl-long"));
  // Without the pool declaration the 60 s app record is an ordinary short TTL.
  EXPECT_TRUE(has_rule(lint_text(kCleanZone), "ttl-short"));
}

TEST(LintTest, NegativeTtlIsMinOfSoaTtlAndMinimum) {
  auto long_negative = lint_text(R"(@ 86400 IN SOA ns1 hm 1 7200 900 1209600 86400
@ 3600 IN NS ns1
ns1 3600 IN A 192.0.2.53
)");
  EXPECT_TRUE(has_rule(long_negative, "negative-ttl-long"));
  // SOA TTL 3600 caps a MINIMUM of 86400 at 3600 s, under the 3 h limit.
  auto capped = lint_text(R"(@ 3600 IN SOA ns1 hm 1 7200 900 1209600 86400
@ 3600 IN NS ns1
ns1 3600 IN A 192.0.2.53
)");
  EXPECT_FALSE(has_rule(capped, "negative-ttl-long"));
  auto short_negative = lint_text(R"(@ 3600 IN SOA ns1 hm 1 7200 900 1209600 5
@ 3600 IN NS ns1
ns1 3600 IN A 192.0.2.53
)");
  EXPECT_TRUE(has_rule(short_negative, "negative-ttl-short"));
}

TEST(LintTest, EmptyNonTerminalShadowsWildcard) {
  auto report = lint_text(std::string(kCleanZone) + "*.svc IN A 192.0.2.7\nx.b.svc IN A 192.0.2.8\n");
  ASSERT_TRUE(has_rule(report, "wildcard-shadowing"));
  EXPECT_NE(lint_to_text(report).find("empty non-terminal b.svc.example.test."), std::string::npos);
}

TEST(LintTest, ConfigDisablesAndRelevelsRules) {
  auto config = parse_lint_config("rules:\n  ttl-short: off\n  ttl-zero: info\npools: [app]\n", origin());
  ASSERT_TRUE(config.ok()) << config.error().message;
  auto report = lint_text(std::string(kCleanZone) + "zero 0 IN A 192.0.2.1\nshort 300 IN A 192.0.2.1\n", *config);
  EXPECT_FALSE(has_rule(report, "ttl-short"));
  ASSERT_TRUE(has_rule(report, "ttl-zero"));
  EXPECT_EQ(report.findings.front().severity, Severity::kInfo);
  EXPECT_EQ(exit_code_for(report.findings), ExitCode::kOk);
}

TEST(LintTest, ConfigRejectsUnknownRuleAndLevel) {
  EXPECT_FALSE(parse_lint_config("rules: { no-such-rule: off }", origin()).ok());
  EXPECT_FALSE(parse_lint_config("rules: { ttl-zero: loud }", origin()).ok());
  EXPECT_FALSE(parse_lint_config("colour: red", origin()).ok());
}

TEST(LintTest, ParseErrorsAreFindingsAndTheRestIsStillLinted) {
  auto report = lint_text(std::string(kCleanZone) + "bad IN A not-an-address\nzero 0 IN A 192.0.2.1\n",
                          with_pool("app.example.test."));
  EXPECT_TRUE(has_rule(report, "parse-error"));
  EXPECT_TRUE(has_rule(report, "ttl-zero"));
}

TEST(LintTest, SarifCarriesRuleIdsAndRegions) {
  auto report = lint_text(std::string(kCleanZone) + "zero 0 IN A 192.0.2.1\n", with_pool("app.example.test."));
  auto sarif = lint_to_sarif(report);
  EXPECT_EQ(sarif["version"], "2.1.0");
  const auto& result = sarif["runs"][0]["results"][0];
  EXPECT_EQ(result["ruleId"], "ttl-zero");
  EXPECT_EQ(result["level"], "error");
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["region"]["startLine"], 10);
}

}  // namespace
}  // namespace cutover::tools
