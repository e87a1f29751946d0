// Unit tests: report.md follows results.json, and the consistency check catches a measured
// value, a verdict or a report line that does not follow from the raw observations.
#include "lab/report/results_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

namespace cutover::lab {
namespace {

RunResults sample() {
  RunResults results;
  results.started = "2026-01-01T00:00:00Z";
  results.wall_seconds = 12.5;
  results.authority = "127.0.0.1:5353";
  results.resolvers = {{"unbound", "1.17.1", "ok", "1.17.1-2+deb12u4",
                        {{"default", "ok", {{"unbound.conf", "server:\n  cache-max-ttl: 8\n"}}}}},
                       {"kresd", "5.6.0", "ok", "not available: dpkg-query: no packages found matching knot-resolver"}};
  CaseResult pass;
  pass.resolver = "unbound";
  pass.version = "1.17.1";
  pass.experiment = "E1";
  pass.name = "ttl5-default";
  pass.config = "default";
  pass.expected = {{"TTL", 5, 5}};
  pass.rule_value = "192.0.2.2";
  pass.observations = {{0.2, 0.201, "NOERROR", {"192.0.2.1"}, 5}, {5.4, 5.401, "NOERROR", {"192.0.2.2"}, 5}};
  pass.details["fill"] = {{"ttl", 5}};
  judge(pass);
  CaseResult unsupported;
  unsupported.resolver = "kresd";
  unsupported.version = "5.6.0";
  unsupported.experiment = "E2";
  unsupported.name = "soa20-min20-neg3";
  unsupported.config = "neg3";
  unsupported.verdict = Verdict::kNotSupported;
  unsupported.note = "no negative cap";
  results.cases = {pass, unsupported};
  return results;
}

class ReportsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/lab-report-XXXXXX";
    dir_ = ::mkdtemp(pattern);
  }
  void TearDown() override {
    for (const char* file : {"results.json", "report.md", "report.html"}) std::remove((dir_ + "/" + file).c_str());
    ::rmdir(dir_.c_str());
  }
  std::string read(const std::string& file) {
    std::ifstream in(dir_ + "/" + file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  void write(const std::string& file, const std::string& text) { std::ofstream(dir_ + "/" + file) << text; }
  // Writes the reports for `results` and returns what the consistency check finds in them.
  std::vector<std::string> problems_in(const RunResults& results) {
    EXPECT_TRUE(write_reports(results, dir_));
    return check_reports(dir_);
  }
  std::string dir_;
};

TEST_F(ReportsTest, WrittenReportsAreConsistent) {
  ASSERT_TRUE(write_reports(sample(), dir_));
  EXPECT_TRUE(check_reports(dir_).empty());
  std::string markdown = read("report.md");
  EXPECT_NE(markdown.find("| unbound | 1.17.1 | ttl5-default | default | 5 | 5.400 | +0.400 | yes | 1st TTL 5 |"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("| kresd | 5.6.0 | soa20-min20-neg3 | neg3 | — | — | — | not supported | no negative cap |"),
            std::string::npos);
  EXPECT_NE(read("report.html").find("<table>"), std::string::npos);
}

TEST_F(ReportsTest, PackageVersionsAndEffectiveConfigurationsAreReported) {
  ASSERT_TRUE(write_reports(sample(), dir_));
  std::string markdown = read("report.md");
  EXPECT_NE(markdown.find("| unbound | 1.17.1 | 1.17.1-2+deb12u4 | ok |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("| kresd | 5.6.0 | not available: dpkg-query: no packages found matching knot-resolver | ok |"),
            std::string::npos);
  EXPECT_NE(markdown.find("### unbound `default` (ok)\n\nunbound.conf:\n\n```\nserver:\n  cache-max-ttl: 8\n```\n"),
            std::string::npos)
      << markdown;
  EXPECT_NE(read("report.html").find("<pre>server:\n  cache-max-ttl: 8\n</pre>"), std::string::npos);
  auto back = read_results(dir_ + "/results.json");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->resolvers[0].package_version, "1.17.1-2+deb12u4");
  ASSERT_EQ(back->resolvers[0].configurations.size(), 1u);
  EXPECT_EQ(back->resolvers[0].configurations[0].files[0].second, "server:\n  cache-max-ttl: 8\n");
}

TEST_F(ReportsTest, ResultsRoundTrip) {
  auto back = results_from_json(results_to_json(sample()));
  ASSERT_TRUE(back);
  EXPECT_EQ(render_markdown(*back), render_markdown(sample()));
}

TEST_F(ReportsTest, TamperedMeasuredValueIsCaught) {
  RunResults results = sample();
  results.cases[0].measured = 4.0;
  auto problems = problems_in(results);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems[0].find("measured"), std::string::npos);
}

TEST_F(ReportsTest, WrongVerdictIsCaught) {
  RunResults results = sample();
  results.cases[0].verdict = Verdict::kFail;
  EXPECT_FALSE(problems_in(results).empty());
}

TEST_F(ReportsTest, EditedReportIsCaught) {
  ASSERT_TRUE(write_reports(sample(), dir_));
  std::string markdown = read("report.md");
  markdown.replace(markdown.find("5.400"), 5, "5.100");
  write("report.md", markdown);
  auto problems = check_reports(dir_);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("report.md"), std::string::npos);
}

// An E10 case: client polls through the resolver, direct polls of cutover in details.
CaseResult failover_case() {
  CaseResult failover;
  failover.resolver = "unbound";
  failover.version = "1.17.1";
  failover.experiment = "E10";
  failover.name = "ttl5-i1-f2";
  failover.config = "default";
  failover.expected = {{"D + K", 1, 7.5}};
  failover.rule_value = "127.0.10.2";
  failover.observations = {{4.6, 4.601, "NOERROR", {"127.0.10.1"}, 0}, {4.7, 4.701, "NOERROR", {"127.0.10.2"}, 5}};
  failover.details["direct_observations"] = {to_json(Observation{1.9, 1.901, "NOERROR", {"127.0.10.1"}, 5}),
                                             to_json(Observation{1.95, 1.951, "NOERROR", {"127.0.10.2"}, 5})};
  failover.details["detection"] = 1.95;
  failover.details["detection_range"] = {1, 2.5};
  failover.details["cache_term"] = 2.75;
  failover.details["answer_ttl"] = 5;
  judge(failover);
  return failover;
}

TEST_F(ReportsTest, FailoverDetectionAndCacheTermFollowFromTheObservations) {
  RunResults results = sample();
  results.cases.push_back(failover_case());
  EXPECT_TRUE(problems_in(results).empty());
  EXPECT_NE(read("report.md").find("D 1.950 s (formula 1–2.5), K 2.750 s (TTL 5)"), std::string::npos);
  EXPECT_NE(read("report.html").find("D 1.95 + K 2.75 s"), std::string::npos);

  results.cases.back().details["detection"] = 1.5;
  auto problems = problems_in(results);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("detection does not follow"), std::string::npos) << problems[0];

  results.cases.back().details["detection"] = 1.95;
  results.cases.back().details["cache_term"] = 3.2;
  problems = problems_in(results);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("cache term"), std::string::npos) << problems[0];
}

// An E3 case as BIND 9.18 answered a dropped authority: the polls sent at 5 and 6 s are
// answered only at 15 s, after the client's 1.8 s timer (issue 14).
CaseResult stale_case() {
  CaseResult stale;
  stale.resolver = "bind";
  stale.version = "9.18.49";
  stale.experiment = "E3";
  stale.name = "drop-stale15";
  stale.config = "stale15";
  stale.expected = {{"TTL + window", 20, 20}};
  stale.rule = Rule::kLastOk;
  stale.client_timeout = 1.8;
  stale.observations = {{4, 4.001, "NOERROR", {"192.0.2.1"}, 1}, {5, 15.002, "NOERROR", {"192.0.2.1"}, 30},
                        {6, 15.002, "NOERROR", {"192.0.2.1"}, 30}, {16, 16.001, "NOERROR", {"192.0.2.1"}, 30},
                        {21, 21.001, "SERVFAIL", {}, std::nullopt}};
  find_experiment("E3")->report.derive_details(stale);
  judge(stale);
  return stale;
}

TEST_F(ReportsTest, StaleAnswersAfterTheClientTimeoutAreFailuresInTheReport) {
  RunResults results = sample();
  results.cases.push_back(stale_case());
  const CaseResult& stale = results.cases.back();
  EXPECT_EQ(stale.details["pattern"], "ossox");
  EXPECT_EQ(stale.details["first_failure"], 5);
  EXPECT_EQ(stale.details["ok"], 2);
  EXPECT_EQ(stale.details["late"], 2);
  EXPECT_EQ(stale.details["failed"], 3);
  EXPECT_DOUBLE_EQ(*stale.measured, 16);
  EXPECT_TRUE(problems_in(results).empty());
  EXPECT_NE(read("report.md").find("1st fail 5.00, ok/fail 2/3 (2 late), stale TTL 30, polls ossox"), std::string::npos)
      << read("report.md");
  EXPECT_NE(read("report.html").find("#e90"), std::string::npos);

  // A pattern that counts the late answers as answered does not follow from the observations.
  results.cases.back().details["pattern"] = "oooox";
  auto problems = problems_in(results);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("details (pattern, counts)"), std::string::npos) << problems[0];
}

TEST_F(ReportsTest, RepeatedCasesShowTheirSpreadAndInstability) {
  RunResults results = sample();
  CaseResult second = results.cases[0];
  second.observations[1].sent = 7.4;  // outside tolerance in the second run
  judge(second);
  results.cases[0].runs = {results.cases[0], second};
  EXPECT_TRUE(problems_in(results).empty());
  std::string markdown = read("report.md");
  EXPECT_NE(markdown.find("| yes, **unstable** | 1st TTL 5; 2 runs: min/median/max 5.400/6.400/7.400, 1 pass |"),
            std::string::npos)
      << markdown;
  EXPECT_NE(markdown.find("1 of 1 cases are **unstable**"), std::string::npos) << markdown;

  // A run's stored verdict that does not follow from its own observations is caught.
  results.cases[0].runs[1].verdict = Verdict::kPass;
  auto problems = problems_in(results);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems[0].find("run 2: verdict"), std::string::npos) << problems[0];
}

TEST(Compare, ShowsChangedVerdictsAndLargeShifts) {
  RunResults before = sample();
  RunResults after = sample();
  after.cases[0].observations[1].sent = 7.2;
  after.cases[0].version = "1.22.0";
  judge(after.cases[0]);
  std::string text = render_compare(before, after);
  EXPECT_NE(text.find("verdict changed"), std::string::npos) << text;
  EXPECT_NE(text.find("1 of 2 cases differ"), std::string::npos);
}

}  // namespace
}  // namespace cutover::lab
