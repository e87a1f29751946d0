// Unit tests: measured values from raw observations, verdicts, expectation arithmetic, JSON.
#include "lab/case_result.h"

#include <gtest/gtest.h>

#include "lab/expectations.h"

namespace cutover::lab {
namespace {

Observation poll(double sent, const std::string& rcode, std::vector<std::string> answer = {}) {
  return Observation{sent, sent + 0.001, rcode, std::move(answer), std::nullopt};
}

CaseResult flip_case() {
  CaseResult result;
  result.rule = Rule::kFirstAnswer;
  result.rule_value = "192.0.2.2";
  result.expected = {{"TTL", 5, 5}};
  result.observations = {poll(0.2, "NOERROR", {"192.0.2.1"}), poll(5.4, "NOERROR", {"192.0.2.1"}),
                         poll(5.6, "NOERROR", {"192.0.2.2"}), poll(5.8, "NOERROR", {"192.0.2.2"})};
  return result;
}

TEST(DeriveMeasured, FirstAnswerIsTheFirstPollWithTheValue) {
  EXPECT_DOUBLE_EQ(*derive_measured(flip_case()), 5.6);
}

TEST(DeriveMeasured, FirstAnswerAfterSkipsRequestsBeforeTheReference) {
  CaseResult result;
  result.rule = Rule::kFirstAnswerAfter;
  result.rule_value = "b";
  result.observations = {poll(-1.0, "NOERROR", {"b"}), poll(-0.5, "NOERROR", {"a"}), poll(0.1, "refused"),
                         poll(0.35, "NOERROR", {"b"})};
  EXPECT_DOUBLE_EQ(*derive_measured(result), 0.35);
  result.rule = Rule::kFirstAnswer;
  EXPECT_DOUBLE_EQ(*derive_measured(result), -1.0);
  EXPECT_EQ(rule_from_text(rule_to_text(Rule::kFirstAnswerAfter)), Rule::kFirstAnswerAfter);
}

TEST(DeriveMeasured, LastOkIgnoresFailuresAfterIt) {
  CaseResult result;
  result.rule = Rule::kLastOk;
  result.observations = {poll(1, "NOERROR", {"a"}), poll(2, "SERVFAIL"), poll(3, "NOERROR", {"a"}), poll(4, "TIMEOUT")};
  EXPECT_DOUBLE_EQ(*derive_measured(result), 3);
}

TEST(DeriveMeasured, NothingQualifiesGivesNoValue) {
  CaseResult result = flip_case();
  result.rule_value = "198.51.100.1";
  EXPECT_FALSE(derive_measured(result).has_value());
  judge(result);
  EXPECT_EQ(result.verdict, Verdict::kFail);
}

// A poll sent at `sent` whose reply took `latency` seconds.
Observation slow(double sent, double latency, const std::string& rcode, std::vector<std::string> answer = {}) {
  return Observation{sent, sent + latency, rcode, std::move(answer), std::nullopt};
}

TEST(ClientView, LateAnswersAreTimeoutsForTheClient) {
  // BIND 9.18 serving stale after its fetch gives up: the polls sent at 5 and 6 s are answered
  // at 15 s, which a client with the 1.8 s timer never sees (issue 14).
  std::vector<Observation> polls = {slow(4, 0.001, "NOERROR", {"a"}), slow(5, 10.0, "NOERROR", {"a"}),
                                    slow(6, 9.0, "NOERROR", {"a"}), slow(7, 1.8, "NOERROR", {"a"}),
                                    slow(8, 0.1, "SERVFAIL"), slow(9, 12.0, "TIMEOUT")};
  EXPECT_EQ(client_pattern(polls, kDefaultClientTimeout), "ossoxx");
  EXPECT_EQ(client_view(polls[1], 1.8), ClientView::kLate);
  EXPECT_EQ(client_view(polls[3], 1.8), ClientView::kInTime);  // exactly at the timer: in time
  EXPECT_EQ(client_view(polls[4], 1.8), ClientView::kFailed);
  // Without a client timeout (older results.json) every answer counts, as before.
  EXPECT_EQ(client_pattern(polls, std::nullopt), "ooooxx");
}

TEST(ClientView, MeasuredValueSkipsLateAnswers) {
  CaseResult result;
  result.rule = Rule::kLastOk;
  result.client_timeout = 1.8;
  result.observations = {slow(1, 0.01, "NOERROR", {"a"}), slow(2, 0.01, "NOERROR", {"a"}),
                         slow(3, 10.0, "NOERROR", {"a"}), slow(4, 0.01, "SERVFAIL")};
  EXPECT_DOUBLE_EQ(*derive_measured(result), 2);
  result.client_timeout.reset();
  EXPECT_DOUBLE_EQ(*derive_measured(result), 3);

  CaseResult flip = flip_case();
  flip.client_timeout = 1.8;
  flip.observations[2].received = flip.observations[2].sent + 2.5;  // the new address, but late
  EXPECT_DOUBLE_EQ(*derive_measured(flip), 5.8);
  flip.client_timeout = 3;
  EXPECT_DOUBLE_EQ(*derive_measured(flip), 5.6);
}

// One run of a repeated case: measured at `at` (nothing when negative), judged against 5 s.
CaseResult run_at(double at) {
  CaseResult result = flip_case();
  result.observations = {poll(0.2, "NOERROR", {"192.0.2.1"})};
  if (at >= 0) result.observations.push_back(poll(at, "NOERROR", {"192.0.2.2"}));
  judge(result);
  return result;
}

TEST(Spread, MinMedianMaxOverTheRunsWithAValue) {
  Spread odd = spread_of({run_at(5.4), run_at(4.2), run_at(6.0)});
  EXPECT_EQ(odd.runs, 3);
  EXPECT_DOUBLE_EQ(*odd.min, 4.2);
  EXPECT_DOUBLE_EQ(*odd.median, 5.4);
  EXPECT_DOUBLE_EQ(*odd.max, 6.0);
  EXPECT_EQ(odd.passed, 3);
  EXPECT_FALSE(odd.unstable);

  Spread even = spread_of({run_at(5.4), run_at(4.2), run_at(6.0), run_at(5.0)});
  EXPECT_DOUBLE_EQ(*even.median, 5.2);  // the mean of the two middle values

  // A run outside tolerance and a run with no value: the verdict differs, so unstable.
  Spread mixed = spread_of({run_at(5.4), run_at(9.0), run_at(-1)});
  EXPECT_EQ(mixed.measured_runs, 2);
  EXPECT_DOUBLE_EQ(*mixed.min, 5.4);
  EXPECT_DOUBLE_EQ(*mixed.max, 9.0);
  EXPECT_EQ(mixed.passed, 1);
  EXPECT_TRUE(mixed.unstable);

  Spread none = spread_of({run_at(-1), run_at(-1)});
  EXPECT_FALSE(none.min.has_value());
  EXPECT_FALSE(none.unstable);  // failed both times: stable
}

TEST(Spread, RunsRoundTripThroughJson) {
  CaseResult first = run_at(5.4);
  first.runs = {run_at(5.4), run_at(9.0)};
  nlohmann::json json = to_json(first);
  EXPECT_EQ(json["runs"].size(), 2u);
  EXPECT_EQ(json["spread"]["unstable"], true);
  EXPECT_EQ(json["spread"]["max"], 9.0);
  EXPECT_FALSE(json["runs"][0].contains("runs"));
  CaseResult back = case_from_json(json);
  ASSERT_EQ(back.runs.size(), 2u);
  EXPECT_DOUBLE_EQ(*back.runs[1].measured, 9.0);
  EXPECT_EQ(to_json(back), json);
}

TEST(Judge, InsideToleranceEdgesPass) {
  CaseResult result = flip_case();
  result.observations = {poll(6.5, "NOERROR", {"192.0.2.2"})};
  judge(result);
  EXPECT_DOUBLE_EQ(*result.delta, 1.5);
  EXPECT_EQ(result.verdict, Verdict::kPass);
  result.observations = {poll(3.8, "NOERROR", {"192.0.2.2"})};
  judge(result);
  EXPECT_EQ(result.verdict, Verdict::kPass);
  result.observations = {poll(3.7, "NOERROR", {"192.0.2.2"})};
  judge(result);
  EXPECT_EQ(result.verdict, Verdict::kFail);
  result.observations = {poll(6.6, "NOERROR", {"192.0.2.2"})};
  judge(result);
  EXPECT_EQ(result.verdict, Verdict::kFail);
}

TEST(Judge, RangeHasZeroDeltaInside) {
  CaseResult result;
  result.rule = Rule::kFirstOk;
  result.expected = {{"RFC 9520", 1, 300}};
  result.observations = {poll(42, "NOERROR", {"a"})};
  judge(result);
  EXPECT_DOUBLE_EQ(*result.delta, 0);
  EXPECT_EQ(result.verdict, Verdict::kPass);
  result.observations = {poll(-0.5 + 0.3, "NOERROR", {"a"})};
  judge(result);
  EXPECT_NEAR(*result.delta, -1.2, 1e-9);
}

TEST(Judge, AlternativesPickTheNearestExpectation) {
  CaseResult result;
  result.rule = Rule::kFirstOk;
  result.expected = {{"parent", 5, 5}, {"child", 29, 29}};
  result.observations = {poll(30.2, "NOERROR", {"a"})};
  judge(result);
  EXPECT_EQ(result.matched, "child");
  EXPECT_NEAR(*result.delta, 1.2, 1e-9);
}

TEST(Expectations, Arithmetic) {
  EXPECT_EQ(clamped_ttl(5, 15, std::nullopt), 15);
  EXPECT_EQ(clamped_ttl(20, std::nullopt, 8), 8);
  EXPECT_EQ(clamped_ttl(20, std::nullopt, std::nullopt), 20);
  EXPECT_EQ(negative_ttl(30, 6, std::nullopt), 6);
  EXPECT_EQ(negative_ttl(8, 8, std::nullopt), 8);
  EXPECT_EQ(negative_ttl(20, 20, 3), 3);
  EXPECT_DOUBLE_EQ(remaining_ttl(12, 1.2), 10.8);
  EXPECT_DOUBLE_EQ(remaining_ttl(3, 4), 0);
  EXPECT_EQ(last_answer(5, 15), 20);
  EXPECT_EQ(last_answer(5, std::nullopt), 5);
}

TEST(CaseJson, RoundTripKeepsEverythingJudged) {
  CaseResult result = flip_case();
  result.resolver = "unbound";
  result.experiment = "E1";
  result.name = "ttl5-default";
  result.observations.back().ttl = 4;
  result.client_timeout = 1.8;
  judge(result);
  CaseResult back = case_from_json(to_json(result));
  EXPECT_EQ(back.name, "ttl5-default");
  EXPECT_EQ(back.observations.size(), 4u);
  EXPECT_EQ(*back.observations.back().ttl, 4u);
  EXPECT_EQ(back.client_timeout, 1.8);
  EXPECT_EQ(back.verdict, result.verdict);
  EXPECT_DOUBLE_EQ(*back.measured, *result.measured);
  EXPECT_EQ(to_json(back), to_json(result));
}

}  // namespace
}  // namespace cutover::lab
