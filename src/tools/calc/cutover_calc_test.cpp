// Unit tests for the cutover arithmetic: Table 5.1 rows A, B and C (docs/tools.md, "cutover calc") exactly, the
// resolver clamps and stale window of chapter 2, and the client profiles of Table 6.1.
#include "tools/calc/cutover_calc.h"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "tools/calc/client_profiles.h"

namespace cutover::tools {
namespace {

CalcInput make_input(double interval, int fall, double timeout, double ttl) {
  CalcInput input;
  input.interval = interval;
  input.fall = fall;
  input.timeout = timeout;
  input.ttl = ttl;
  return input;
}

struct Table51Row {
  const char* row;
  double interval;
  int fall;
  double timeout;
  double ttl;
  double d_min, d_max, k_max, dk_min, dk_max;
  const char* dominant;
};

// Table 5.1 (docs/tools.md, "cutover calc"; derived): settings, D range, K max, D + K range; Figure 5.1 names the
// dominant term (detection in A, the TTL in C).
const Table51Row kTable51[] = {
    {"A", 30, 4, 10, 30, 100, 130, 30, 100, 160, "detection"},
    {"B", 10, 3, 5, 60, 25, 35, 60, 25, 95, "resolver cache"},
    {"C", 30, 3, 10, 300, 70, 100, 300, 70, 400, "resolver cache"},
};

TEST(CutoverCalcTest, ReproducesTable51RowsExactly) {
  for (const auto& row : kTable51) {
    SCOPED_TRACE(row.row);
    CalcInput input = make_input(row.interval, row.fall, row.timeout, row.ttl);
    CalcResult result = compute_cutover(input);
    EXPECT_EQ(result.detection_min, row.d_min);
    EXPECT_EQ(result.detection_max, row.d_max);
    EXPECT_EQ(result.cache_max, row.k_max);
    EXPECT_EQ(result.total_min, row.dk_min);
    EXPECT_EQ(result.total_max, row.dk_max);
    EXPECT_EQ(result.dominant, row.dominant);
  }
}

TEST(CutoverCalcTest, PropagationClientAndReuseComeOnTop) {
  CalcInput input = make_input(30, 4, 10, 30);
  input.propagation = 5;
  input.client_cache = 30;
  input.connection_reuse = 7;
  CalcResult result = compute_cutover(input);
  EXPECT_EQ(result.total_min, 105);
  EXPECT_EQ(result.total_max, 130 + 5 + 30 + 30 + 7);
}

TEST(CutoverCalcTest, ResolverFloorRaisesShortTtl) {
  CalcInput input = make_input(10, 1, 2, 2);
  input.resolver_floor = 5;  // CoreDNS documents a 5 s floor (plugin/cache/README.md in coredns/coredns)
  EXPECT_EQ(compute_cutover(input).cache_max, 5);
}

TEST(CutoverCalcTest, ResolverCapLowersLongTtl) {
  CalcInput input = make_input(10, 1, 2, 86400);
  input.resolver_cap = 3600;
  EXPECT_EQ(compute_cutover(input).cache_max, 3600);
}

TEST(CutoverCalcTest, StaleWindowExtendsCacheTermAndIsNoted) {
  CalcInput input = make_input(10, 1, 2, 5);
  input.stale_window = 15;
  CalcResult result = compute_cutover(input);
  EXPECT_EQ(result.cache_max, 20);  // RFC 8767 serve-stale: 5 s TTL + 15 s window
  ASSERT_FALSE(result.notes.empty());
}

TEST(CutoverCalcTest, UnboundedClientMakesTotalUnbounded) {
  CalcInput input = make_input(10, 1, 2, 5);
  input.client_cache = std::numeric_limits<double>::infinity();
  CalcResult result = compute_cutover(input);
  EXPECT_TRUE(std::isinf(result.total_max));
  EXPECT_EQ(result.dominant, "client cache");
  EXPECT_TRUE(calc_to_json(input, result)["total"]["max"].is_null());
}

TEST(CutoverCalcTest, RejectsBadInput) {
  EXPECT_TRUE(validate(make_input(1, 0, 0, 0)).has_value());
  EXPECT_TRUE(validate(make_input(-1, 1, 0, 0)).has_value());
  EXPECT_FALSE(validate(make_input(30, 4, 10, 30)).has_value());
}

TEST(ClientProfilesTest, NamedProfilesCarryTable61Figures) {
  const ClientProfile* java = find_client_profile("openjdk21-default");
  ASSERT_NE(java, nullptr);
  EXPECT_EQ(java->cache_seconds, 30.0);
  const ClientProfile* curl = find_client_profile("curl-long-lived");
  ASSERT_NE(curl, nullptr);
  EXPECT_EQ(curl->cache_seconds, 60.0);
  EXPECT_FALSE(find_client_profile("openjdk21-forever")->cache_seconds.has_value());
  EXPECT_EQ(find_client_profile("no-such-runtime"), nullptr);
  for (const auto& profile : client_profiles()) EXPECT_NE(profile.source.find("Table 6.1"), std::string_view::npos);
}


MeasuredClient lab_java() {
  MeasuredClient java;
  java.id = "java";
  java.runtime = "OpenJDK, HttpURLConnection";
  java.version = "17.0.17";
  java.setting = "default";
  java.cache_seconds = 30.48;
  java.cache_basis = "E6: first new request 26.73 s after a change 3.75 s after its first lookup";
  java.reuse_measured = true;
  java.reuse_seconds = std::nullopt;  // never left a kept-open origin
  java.reuse_basis = "E11 (keeps the connection open): still reaching the old origin";
  java.source = "/tmp/lab/results.json (started 2026-12-03T06:00:00Z)";
  return java;
}

TEST(ClientTermsTest, ALabClientWinsOverTheProfilesAndNamesTheRun) {
  std::vector<MeasuredClient> measured = {lab_java()};
  auto terms = find_client_terms("java", measured);
  ASSERT_TRUE(terms.has_value());
  EXPECT_TRUE(terms->measured_here);
  EXPECT_DOUBLE_EQ(terms->cache, 30.48);
  ASSERT_TRUE(terms->reuse.has_value());
  EXPECT_TRUE(std::isinf(*terms->reuse));
  EXPECT_NE(terms->basis.find("17.0.17"), std::string::npos);
  EXPECT_NE(client_terms_source(measured).find("lab run /tmp/lab/results.json"), std::string::npos);
}

TEST(ClientTermsTest, WithoutALabRunTheTermsComeFromThePaper) {
  auto terms = find_client_terms("curl-long-lived", {});
  ASSERT_TRUE(terms.has_value());
  EXPECT_FALSE(terms->measured_here);
  EXPECT_DOUBLE_EQ(terms->cache, 60);
  EXPECT_FALSE(terms->reuse.has_value());
  EXPECT_NE(client_terms_source({}).find("from the paper"), std::string::npos);
  EXPECT_FALSE(find_client_terms("java", {}).has_value());  // a lab id needs a lab run
}

TEST(ClientTermsTest, AnUnboundedReuseMakesTheTotalUnbounded) {
  CalcInput input = make_input(10, 3, 2, 20);
  input.client_cache = 30.48;
  input.connection_reuse = std::numeric_limits<double>::infinity();
  input.reuse_measured = true;
  input.client_profile = "java";
  input.client_measured = true;
  CalcResult result = compute_cutover(input);
  EXPECT_TRUE(std::isinf(result.total_max));
  EXPECT_EQ(result.dominant, "connection reuse");
  std::string text = calc_to_text(input, result);
  EXPECT_NE(text.find("lab java (E11)"), std::string::npos);
  EXPECT_TRUE(calc_to_json(input, result)["inputs"]["connection_reuse"].is_null());
}

// Remote checkers with a quorum (docs/cluster.md, "Detection with a quorum"): L adds to D's
// upper bound and the total, never to the lower bound; the rule and whether L was assumed
// are said.
TEST(CalcQuorumTest, PublishLatencyAddsToTheUpperBoundOnly) {
  CalcInput input = make_input(10, 3, 2, 60);
  CalcResult single = compute_cutover(input);
  input.quorum = 2;
  input.publish_latency = 0.05;
  input.publish_latency_assumed = true;
  CalcResult result = compute_cutover(input);
  EXPECT_DOUBLE_EQ(result.detection_min, 22);
  EXPECT_DOUBLE_EQ(result.detection_max, 32.05);
  EXPECT_DOUBLE_EQ(result.total_max, single.total_max + 0.05);
  EXPECT_DOUBLE_EQ(result.total_min, single.total_min);
  std::string text = calc_to_text(input, result);
  EXPECT_NE(text.find("quorum 2 of the vantages, L=0.05 s (default)"), std::string::npos) << text;
  EXPECT_NE(text.find("F*I+T+L"), std::string::npos) << text;
  EXPECT_NE(text.find("2nd fastest"), std::string::npos) << text;
  EXPECT_NE(text.find("is the default, a margin above the loopback measurement"), std::string::npos) << text;
  auto json = calc_to_json(input, result);
  EXPECT_EQ(json["inputs"]["quorum"], 2);
  EXPECT_EQ(json["inputs"]["publish_latency_assumed"], true);
  EXPECT_DOUBLE_EQ(json["detection"]["max"].get<double>(), 32.05);
  EXPECT_DOUBLE_EQ(json["detection"]["publish_latency"].get<double>(), 0.05);

  input.publish_latency = 0.2;
  input.publish_latency_assumed = false;
  EXPECT_NE(calc_to_text(input, compute_cutover(input)).find("L = 0.2 s (checker publish + server watch) as given"),
            std::string::npos);
  input.publish_latency = -1;
  EXPECT_TRUE(validate(input).has_value());

  // Without a quorum nothing changes.
  CalcInput plain = make_input(10, 3, 2, 60);
  EXPECT_TRUE(calc_to_json(plain, compute_cutover(plain))["inputs"]["quorum"].is_null());
  EXPECT_EQ(calc_to_text(plain, compute_cutover(plain)).find("F*I+T+L"), std::string::npos);
}

}  // namespace
}  // namespace cutover::tools
