// The per-request log: every program's real lines parse (testdata/), malformed lines are
// refused with a reason, observations and E6/E11 facts follow from a log, and the `lab check`
// re-derivation catches a raw log that no longer gives the stored observations.
#include "lab/clients/request_log.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lab/experiments/client_common.h"

namespace cutover::lab {
namespace {

std::string testdata(const std::string& name) {
  std::ifstream in(std::filesystem::path(CUTOVER_SOURCE_DIR) / "src/lab/clients/testdata" / name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(RequestLog, EveryProgramsRealLinesParse) {
  struct Row {
    const char* file;
    std::size_t requests;
    const char* first_error;
  };
  for (const Row& row : {Row{"lines-python.jsonl", 2, "refused"}, Row{"lines-curl.jsonl", 3, "refused"},
                         Row{"lines-java.jsonl", 2, "refused"}, Row{"lines-go.jsonl", 2, "dns"},
                         Row{"lines-node.jsonl", 2, "refused"}}) {
    RequestLog log = parse_request_log(testdata(row.file));
    EXPECT_TRUE(log.garbage.empty()) << row.file << ": " << (log.garbage.empty() ? "" : log.garbage.front());
    ASSERT_EQ(log.requests.size(), row.requests) << row.file;
    EXPECT_EQ(log.requests[0].origin.value_or(""), "a") << row.file;
    EXPECT_FALSE(log.requests[0].error) << row.file;
    EXPECT_EQ(log.requests[1].error.value_or(""), row.first_error) << row.file;
    EXPECT_FALSE(log.requests[1].origin) << row.file;
  }
}

TEST(RequestLog, MalformedLinesAreRefusedWithTheirLineNumber) {
  struct Row {
    const char* line;
    const char* reason;
  };
  for (const Row& row : {
           Row{"not json", "not a JSON object"},
           Row{R"({"peer": null, "new_conn": null, "origin": "a", "error": null, "detail": ""})", "no \"t\""},
           Row{R"({"t": "now", "peer": null, "new_conn": null, "origin": "a", "error": null, "detail": ""})", "not a number"},
           Row{R"({"t": 5, "peer": 7, "new_conn": null, "origin": "a", "error": null, "detail": ""})", "\"peer\""},
           Row{R"({"t": 5, "peer": null, "new_conn": "yes", "origin": "a", "error": null, "detail": ""})", "\"new_conn\""},
           Row{R"({"t": 5, "peer": null, "new_conn": null, "origin": null, "error": "eaten", "detail": ""})", "\"error\" is not one of"},
           Row{R"({"t": 5, "peer": null, "new_conn": null, "origin": "a", "error": "dns", "detail": ""})", "has an origin"},
           Row{R"({"t": 5, "peer": null, "new_conn": null, "origin": null, "error": null, "detail": ""})", "no origin"},
           Row{R"({"t": -1, "peer": null, "new_conn": null, "origin": "a", "error": null, "detail": ""})", "unix time"},
       }) {
    auto parsed = parse_request_line(row.line);
    ASSERT_FALSE(parsed) << row.line;
    EXPECT_NE(parsed.error().message.find(row.reason), std::string::npos) << row.line << ": " << parsed.error().message;
  }
  RequestLog log = parse_request_log(testdata("lines-go.jsonl") + "garbage\n");
  ASSERT_EQ(log.garbage.size(), 1u);
  EXPECT_EQ(log.garbage[0].rfind("3: not a JSON object", 0), 0u) << log.garbage[0];
}

TEST(RequestLog, PeerHostsOfBothFamilies) {
  EXPECT_EQ(peer_host("127.0.0.2:80"), "127.0.0.2");
  EXPECT_EQ(peer_host("[2001:db8::2]:80"), "2001:db8::2");
  EXPECT_EQ(peer_host("2001:db8::2"), "2001:db8::2");
}

TEST(RequestLog, ObservationsTakeTheRequestStartOrTheOutcome) {
  RequestLog log = parse_request_log(
      R"({"t": 100.25, "peer": "127.0.0.2:80", "new_conn": true, "origin": "a", "error": null, "detail": "200"}
{"t": 100.75, "peer": null, "new_conn": null, "origin": null, "error": "timeout", "detail": "x"}
)");
  std::vector<double> seen = {100.5, 104.0};
  auto by_start = request_observations(log.requests, seen, 100.0, RequestClock::kStart);
  ASSERT_EQ(by_start.size(), 2u);
  EXPECT_DOUBLE_EQ(by_start[0].sent, 0.25);
  EXPECT_DOUBLE_EQ(by_start[0].received, 0.5);
  EXPECT_EQ(by_start[0].rcode, "NOERROR");
  EXPECT_EQ(by_start[0].answer, std::vector<std::string>{"a"});
  EXPECT_EQ(by_start[1].rcode, "timeout");
  EXPECT_TRUE(by_start[1].answer.empty());
  auto by_outcome = request_observations(log.requests, seen, 100.25, RequestClock::kOutcome);
  EXPECT_DOUBLE_EQ(by_outcome[1].sent, 3.75);
}

TEST(RequestLog, SeenTimesFollowTheLinesTheRequestsCameFrom) {
  RequestLog log = parse_request_log("junk\n" + testdata("lines-node.jsonl"));
  auto seen = seen_of_requests(log, {1.0, 2.0, 3.0});
  EXPECT_EQ(seen, (std::vector<double>{2.0, 3.0}));
}

TEST(RequestLog, FollowingDetailsCountTheOldOriginAfterTheChange) {
  std::vector<Observation> observations = {
      {-1.0, -0.9, "NOERROR", {"a"}, std::nullopt}, {0.5, 0.6, "NOERROR", {"a"}, std::nullopt},
      {1.0, 1.1, "refused", {}, std::nullopt},      {1.5, 1.6, "NOERROR", {"b"}, std::nullopt},
      {2.0, 2.1, "NOERROR", {"a"}, std::nullopt}};
  auto details = following_details(observations, "a", 0);
  EXPECT_EQ(details["requests"], 5);
  EXPECT_EQ(details["errors"], 1);
  EXPECT_EQ(details["old_after_change"], 2);
  EXPECT_DOUBLE_EQ(details["last_old"].get<double>(), 2.0);
  EXPECT_EQ(details["per_origin"]["b"], 1);
  EXPECT_TRUE(following_details({}, "a", 0)["last_old"].is_null());
}

TEST(ClientExpectations, FollowTheRuntimesDocumentedCache) {
  auto none = following_expectation({ClientCache::Kind::kNone}, 3.75, 2, 0.5);
  EXPECT_DOUBLE_EQ(none.low, 0);
  EXPECT_DOUBLE_EQ(none.high, 2.5);
  auto jdk = following_expectation({ClientCache::Kind::kFromFirstLookup, 30}, 3.75, 2, 0.5);
  EXPECT_DOUBLE_EQ(jdk.low, 26.25);
  EXPECT_DOUBLE_EQ(jdk.high, 26.75);
  EXPECT_TRUE(following_expectation({ClientCache::Kind::kForever}, 3.75, 2, 0.5).never);
  auto negative = repair_expectation({ClientCache::Kind::kFromFirstLookup, 30, 10}, 3.75, 2, 0.5);
  EXPECT_DOUBLE_EQ(negative.low, 6.25);
  auto no_negative = repair_expectation({}, 3.75, 2, 0.5);
  EXPECT_DOUBLE_EQ(no_negative.high, 2.5);
}

TEST(ClientExpectations, NeverPassesOnlyWhenNothingQualifies) {
  CaseResult result;
  result.expected = {{"never within the run", 0, 0, true}};
  result.rule = Rule::kFirstAnswer;
  result.rule_value = "b";
  result.observations = {{1.0, 1.1, "NOERROR", {"a"}, std::nullopt}};
  judge(result);
  EXPECT_EQ(result.verdict, Verdict::kPass);
  EXPECT_FALSE(result.measured);
  result.observations.push_back({2.0, 2.1, "NOERROR", {"b"}, std::nullopt});
  judge(result);
  EXPECT_EQ(result.verdict, Verdict::kFail);
  ASSERT_TRUE(result.measured);
  EXPECT_DOUBLE_EQ(*result.measured, 2.0);
  CaseResult round_trip = case_from_json(to_json(result));
  ASSERT_EQ(round_trip.expected.size(), 1u);
  EXPECT_TRUE(round_trip.expected[0].never);
}

TEST(ClientLogCheck, TheStoredObservationsMustFollowFromTheRawLog) {
  std::string dir = (std::filesystem::path(CUTOVER_SOURCE_DIR) / "src/lab/clients/testdata/run").string();
  CaseResult stored;
  stored.details = {{"client_log", "clients/E6-python-unbound.jsonl"}, {"client_seen", "clients/E6-python-unbound.seen"},
                    {"reference_unix", 0.0}, {"request_clock", "start"}};
  std::ifstream log_file(dir + "/clients/E6-python-unbound.jsonl");
  std::ifstream seen_file(dir + "/clients/E6-python-unbound.seen");
  std::stringstream log_text, seen_text;
  log_text << log_file.rdbuf();
  seen_text << seen_file.rdbuf();
  RequestLog log = parse_request_log(log_text.str());
  ASSERT_GT(log.requests.size(), 10u);
  double reference = log.requests[7].t + 0.25;
  stored.details["reference_unix"] = reference;
  stored.observations = request_observations(log.requests, seen_of_requests(log, parse_seen(seen_text.str())), reference,
                                             RequestClock::kStart);
  EXPECT_TRUE(client_log_problems(dir, stored, "E6 python").empty());
  stored.observations[3].answer = {"b"};
  auto problems = client_log_problems(dir, stored, "E6 python");
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0], "E6 python: request 4 does not follow from the raw client log");
  stored.observations.pop_back();
  EXPECT_NE(client_log_problems(dir, stored, "E6 python").at(0).find("requests, results.json"), std::string::npos);
  stored.details["client_log"] = "clients/missing.jsonl";
  EXPECT_EQ(client_log_problems(dir, stored, "E6 python").at(0), "E6 python: cannot read its raw client log");
}

}  // namespace
}  // namespace cutover::lab
