// Verdict keys and JSON: the layout of docs/cluster.md, round trips, and refusals of
// foreign keys and bad values.
#include "cluster/verdict.h"

#include <gtest/gtest.h>

namespace cutover::cluster {
namespace {

TEST(Verdict, KeyLayout) {
  EXPECT_EQ(verdict_key("/cutover/", "web", "192.0.2.10", "fra"), "/cutover/verdicts/web/192.0.2.10/fra");
  EXPECT_EQ(verdict_key("/x/", "web", "2001:db8::1", "a.b-c_d"), "/x/verdicts/web/2001:db8::1/a.b-c_d");
  EXPECT_TRUE(valid_vantage_name("fra-1.dc_2"));
  EXPECT_FALSE(valid_vantage_name(""));
  EXPECT_FALSE(valid_vantage_name("a/b"));
  EXPECT_FALSE(valid_vantage_name(std::string(65, 'a')));
}

TEST(Verdict, RoundTripsThroughJson) {
  health::VantageVerdict local;
  local.pool = "web";
  local.address = "192.0.2.10";
  local.state = health::HealthState::kDown;
  local.check = 1;
  local.result.outcome = health::ProbeOutcome::kFail;
  local.result.detail = "connection refused";
  local.result.latency = std::chrono::microseconds(1500);
  local.probe_at = std::chrono::system_clock::time_point(std::chrono::milliseconds(1796300000123));
  local.interval = std::chrono::milliseconds(2000);
  health::CheckerView up;
  up.state = health::HealthState::kUp;
  up.consecutive_passes = 4;
  health::CheckerView down;
  down.state = health::HealthState::kDown;
  down.consecutive_failures = 3;
  local.checks = {up, down};

  PublishedVerdict verdict = verdict_of(local, "fra");
  EXPECT_EQ(verdict.reason, "checks[1] fail: connection refused");
  EXPECT_EQ(verdict.probe_time, "2026-12-03T12:13:20.123Z");
  std::string key = verdict_key("/cutover/", verdict.pool, verdict.endpoint, verdict.vantage);
  auto back = parse_verdict("/cutover/", key, verdict_to_json(verdict));
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->pool, "web");
  EXPECT_EQ(back->endpoint, "192.0.2.10");
  EXPECT_EQ(back->vantage, "fra");
  EXPECT_EQ(back->state, health::HealthState::kDown);
  EXPECT_EQ(back->reason, "checks[1] fail: connection refused");
  EXPECT_DOUBLE_EQ(back->latency_ms, 1.5);
  EXPECT_EQ(back->interval_ms, 2000);
  ASSERT_EQ(back->checks.size(), 2u);
  EXPECT_EQ(back->checks[0].state, health::HealthState::kUp);
  EXPECT_EQ(back->checks[0].passes, 4);
  EXPECT_EQ(back->checks[1].failures, 3);
}

TEST(Verdict, RefusesForeignKeysAndBadValues) {
  const std::string good = R"({"state": "up"})";
  struct Case {
    std::string key;
    std::string value;
    std::string error;
  };
  const std::vector<Case> cases{
      {"/other/verdicts/web/192.0.2.1/fra", good, "not under /cutover/verdicts/"},
      {"/cutover/verdicts/web/192.0.2.1", good, "expected POOL/ENDPOINT/VANTAGE"},
      {"/cutover/verdicts/web//fra", good, "expected POOL/ENDPOINT/VANTAGE"},
      {"/cutover/verdicts/web/192.0.2.1/fra", "not json", "not a JSON object"},
      {"/cutover/verdicts/web/192.0.2.1/fra", R"({"state": "maybe"})", "state: expected up, down or unknown"},
      {"/cutover/verdicts/web/192.0.2.1/fra", R"({"reason": "x"})", "state: expected up, down or unknown"},
  };
  for (const auto& c : cases) {
    auto parsed = parse_verdict("/cutover/", c.key, c.value);
    ASSERT_FALSE(parsed) << c.key << " " << c.value;
    EXPECT_NE(parsed.error().message.find(c.error), std::string::npos) << parsed.error().message;
    EXPECT_NE(parsed.error().message.find(c.key), std::string::npos) << parsed.error().message;
  }
  EXPECT_TRUE(parse_verdict("/cutover/", "/cutover/verdicts/web/192.0.2.1/fra", good));
}

}  // namespace
}  // namespace cutover::cluster
