// A hand-made sweep round read by evaluate_watch, its alert conditions, and its rendering
// as Prometheus text and JSON.
#include "monitor/metrics.h"

#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "monitor/watch_outcome.h"

namespace cutover::monitor {
namespace {

tools::SourceResult source(bool authoritative, const std::string& server, const std::string& status,
                           dns::Rcode rcode = dns::Rcode::kNoError, std::vector<std::string> answers = {},
                           std::optional<std::uint32_t> ttl = std::nullopt) {
  tools::SourceResult out;
  out.authoritative = authoritative;
  out.status = status;
  out.probe.server = server;
  out.probe.answered = status != "silent";
  out.probe.timed_out = status == "silent";
  out.probe.authoritative = authoritative;
  out.probe.rcode = rcode;
  out.probe.answers = std::move(answers);
  out.probe.min_ttl = ttl;
  out.probe.round_trip = std::chrono::microseconds(1500);
  return out;
}

WatchSpec www_spec() {
  WatchSpec spec;
  spec.name = *dns::Name::from_text("www.example.test.");
  spec.type = dns::RRType::A;
  spec.expect = {"192.0.2.99"};
  return spec;
}

// Two authoritatives on serials 11 and 10 (the old one differs), a resolver still holding
// the old answer, a resolver saying NXDOMAIN, and a silent authoritative.
tools::SweepRound split_round() {
  tools::SweepRound round;
  round.reference = "NOERROR www.example.test. A 192.0.2.99";
  round.sources.push_back(source(true, "127.0.0.1:5301", "ok", dns::Rcode::kNoError, {"www.example.test. A 192.0.2.99"}));
  round.sources.back().serial = 11;
  round.sources.push_back(source(true, "127.0.0.1:5302", "differs", dns::Rcode::kNoError, {"www.example.test. A 192.0.2.10"}));
  round.sources.back().serial = 10;
  round.sources.push_back(source(true, "127.0.0.1:5303", "silent"));
  round.sources.push_back(source(false, "127.0.0.1:5304", "differs", dns::Rcode::kNoError, {"www.example.test. A 192.0.2.10"}, 240));
  round.sources.push_back(source(false, "127.0.0.1:5305", "differs", dns::Rcode::kNxDomain));
  return round;
}

TEST(WatchOutcome, ReadsAgreementExpectationNxdomainAndSilence) {
  WatchOutcome outcome = evaluate_watch(www_spec(), split_round());
  EXPECT_FALSE(outcome.authoritatives_agree);
  EXPECT_TRUE(outcome.mismatch);
  ASSERT_TRUE(outcome.expected_matches);
  EXPECT_TRUE(*outcome.expected_matches);  // the reference (serial 11) serves 192.0.2.99
  EXPECT_TRUE(outcome.nxdomain);
  EXPECT_EQ(outcome.silent_authoritatives, std::vector<std::string>{"127.0.0.1:5303"});

  auto conditions = conditions_of({outcome});
  ASSERT_EQ(conditions.size(), 3U);
  EXPECT_EQ(conditions[0].rule, "mismatch");
  EXPECT_EQ(conditions[0].subject, "www.example.test. A");
  EXPECT_NE(conditions[0].message.find("127.0.0.1:5302"), std::string::npos);
  EXPECT_EQ(conditions[1].rule, "nxdomain");
  EXPECT_EQ(conditions[2].rule, "authoritative-silent");
  EXPECT_EQ(conditions[2].subject, "127.0.0.1:5303");
}

TEST(WatchOutcome, AgreeingRoundWithTheWrongExpectedAnswerIsAMismatch) {
  tools::SweepRound round;
  round.sources.push_back(source(true, "127.0.0.1:5301", "ok", dns::Rcode::kNoError, {"www.example.test. A 192.0.2.10"}));
  round.sources.push_back(source(false, "127.0.0.1:5304", "ok", dns::Rcode::kNoError, {"www.example.test. A 192.0.2.10"}, 60));
  WatchOutcome outcome = evaluate_watch(www_spec(), round);
  EXPECT_TRUE(outcome.authoritatives_agree);
  EXPECT_FALSE(*outcome.expected_matches);
  EXPECT_TRUE(outcome.mismatch);
  WatchSpec no_expect = www_spec();
  no_expect.expect.clear();
  EXPECT_FALSE(evaluate_watch(no_expect, round).mismatch);
}

TEST(WatchOutcome, NxdomainForANameThatShouldNotExistIsNoCondition) {
  WatchSpec gone = www_spec();
  gone.expect.clear();
  gone.exists = false;
  tools::SweepRound round;
  round.sources.push_back(source(true, "127.0.0.1:5301", "ok", dns::Rcode::kNxDomain));
  EXPECT_FALSE(evaluate_watch(gone, round).nxdomain);
  EXPECT_TRUE(conditions_of({evaluate_watch(gone, round)}).empty());
}

MonitorSnapshot split_snapshot() {
  MonitorSnapshot snapshot;
  snapshot.rounds = 3;
  snapshot.outcomes.push_back(evaluate_watch(www_spec(), split_round()));
  count_round(snapshot.outcomes, snapshot.servers);
  count_round(snapshot.outcomes, snapshot.servers);
  snapshot.alerts.push_back({"mismatch", "www.example.test. A", true, 12.5, "m"});
  snapshot.alert_transitions = 1;
  snapshot.webhook_configured = true;
  snapshot.webhook.delivered = 1;
  snapshot.webhook.failed_attempts = 2;
  return snapshot;
}

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

TEST(Metrics, RendersEveryFamilyInTextFormat) {
  std::string text = render_metrics(split_snapshot());
  EXPECT_TRUE(has_line(text, "# TYPE cutover_monitor_rounds_total counter")) << text;
  EXPECT_TRUE(has_line(text, "cutover_monitor_rounds_total 3"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_agree{name="www.example.test.",type="A"} 0)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_authoritatives_agree{name="www.example.test.",type="A"} 0)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_expected_match{name="www.example.test.",type="A"} 1)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_resolver_match{name="www.example.test.",type="A",resolver="127.0.0.1:5304"} 0)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_resolver_ttl_seconds{name="www.example.test.",type="A",resolver="127.0.0.1:5304"} 240)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_authoritative_serial{name="www.example.test.",type="A",server="127.0.0.1:5301"} 11)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_authoritative_serial{name="www.example.test.",type="A",server="127.0.0.1:5302"} 10)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_authoritative_up{name="www.example.test.",type="A",server="127.0.0.1:5303"} 0)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_authoritative_latency_seconds{name="www.example.test.",type="A",server="127.0.0.1:5301"} 0.0015)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_timeouts_total{server="127.0.0.1:5303",role="authoritative"} 2)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_responses_total{server="127.0.0.1:5305",role="resolver",rcode="NXDOMAIN"} 2)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_responses_total{server="127.0.0.1:5304",role="resolver",rcode="SERVFAIL"} 0)"));
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_alert_firing{rule="mismatch",subject="www.example.test. A"} 1)"));
  EXPECT_TRUE(has_line(text, "cutover_monitor_webhook_failed_attempts_total 2"));
  // A silent authoritative has no latency, a resolver without records no TTL.
  EXPECT_EQ(text.find(R"(latency_seconds{name="www.example.test.",type="A",server="127.0.0.1:5303"})"), std::string::npos);
  EXPECT_EQ(text.find(R"(ttl_seconds{name="www.example.test.",type="A",resolver="127.0.0.1:5305"})"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
}

// The text format wants all lines of one metric in one group, after its # TYPE line.
TEST(Metrics, EveryFamilyIsOneGroup) {
  std::string text = render_metrics(split_snapshot());
  std::set<std::string> closed;
  std::string current;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::string family = line.rfind("# ", 0) == 0 ? line.substr(7, line.find(' ', 7) - 7)
                                                  : line.substr(0, line.find_first_of("{ "));
    if (family == current) continue;
    EXPECT_EQ(closed.count(family), 0U) << family << " appears in two groups:\n" << text;
    if (!current.empty()) closed.insert(current);
    current = family;
  }
  EXPECT_GT(closed.size(), 15U);
}

TEST(Metrics, EscapesLabelValues) {
  MonitorSnapshot snapshot;
  snapshot.alerts.push_back({"mismatch", "a\"b\\c\nd", false, 0, ""});
  std::string text = render_metrics(snapshot);
  EXPECT_TRUE(has_line(text, R"(cutover_monitor_alert_firing{rule="mismatch",subject="a\"b\\c\nd"} 0)")) << text;
}

TEST(Metrics, StatusJsonCarriesTheRoundAndTheAlerts) {
  nlohmann::json status = status_json(split_snapshot());
  EXPECT_EQ(status["rounds"], 3);
  EXPECT_EQ(status["all_agree"], false);
  ASSERT_EQ(status["watches"].size(), 1U);
  EXPECT_EQ(status["watches"][0]["name"], "www.example.test.");
  EXPECT_EQ(status["watches"][0]["agree"], false);
  EXPECT_EQ(status["watches"][0]["sources"].size(), 5U);
  EXPECT_EQ(status["alerts"][0]["state"], "firing");
  EXPECT_EQ(status["servers"]["127.0.0.1:5305"]["rcodes"]["NXDOMAIN"], 2);
  EXPECT_EQ(status["webhook"]["delivered"], 1);
}

}  // namespace
}  // namespace cutover::monitor
