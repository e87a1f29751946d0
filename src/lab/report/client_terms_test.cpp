// Unit tests: C and R read from E6 and E11 cases as `calc --lab-results` uses them.
#include "lab/report/client_terms.h"

#include <gtest/gtest.h>

namespace cutover::lab {
namespace {

CaseResult client_case(const std::string& experiment, const std::string& client, std::optional<double> first_new,
                       double since_first, nlohmann::json cache_seconds) {
  CaseResult result;
  result.experiment = experiment;
  result.resolver = "unbound";
  result.name = client;
  result.verdict = Verdict::kPass;
  result.measured = first_new;
  result.window = 45;
  result.details = {{"client", client},
                    {"runtime", client + " runtime"},
                    {"client_version", "1.0"},
                    {"setting", "default"},
                    {"record_ttl", 2},
                    {"change_after_first", since_first},
                    {"client_cache_seconds", cache_seconds}};
  return result;
}

TEST(ClientTerms, SwitchWithinTheResolverTermMeansNoCacheOfItsOwn) {
  RunResults results;
  results.cases = {client_case("E6", "python", 2.17, 3.75, 0.0)};
  auto terms = client_terms(results);
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_EQ(terms[0].id, "python");
  EXPECT_EQ(terms[0].version, "1.0");
  ASSERT_TRUE(terms[0].cache.has_value());
  EXPECT_DOUBLE_EQ(*terms[0].cache, 0);
  EXPECT_NE(terms[0].cache_basis.find("no cache of its own"), std::string::npos);
  EXPECT_FALSE(terms[0].reuse_measured);
}

TEST(ClientTerms, ALateSwitchIsTheSpanFromTheFirstLookup) {
  RunResults results;
  results.cases = {client_case("E6", "java", 26.73, 3.75, 30.0)};
  auto terms = client_terms(results);
  ASSERT_EQ(terms.size(), 1u);
  ASSERT_TRUE(terms[0].cache.has_value());
  EXPECT_NEAR(*terms[0].cache, 30.48, 1e-9);
}

TEST(ClientTerms, TheDocumentedCacheStandsWhenTheSwitchCannotShowIt) {
  // java-ttl5: with the change 3.75 s after the first lookup, a 5 s cache looks like the resolver's.
  RunResults results;
  results.cases = {client_case("E6", "java-ttl5", 1.4, 3.75, 5.0)};
  auto terms = client_terms(results);
  ASSERT_TRUE(terms.at(0).cache.has_value());
  EXPECT_DOUBLE_EQ(*terms[0].cache, 5);
}

TEST(ClientTerms, NoSwitchWithinTheRunIsUnbounded) {
  RunResults results;
  results.cases = {client_case("E6", "java-forever", std::nullopt, 3.75, nullptr)};
  auto terms = client_terms(results);
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_FALSE(terms[0].cache.has_value());
  EXPECT_NE(terms[0].cache_basis.find("never reached"), std::string::npos);
}

TEST(ClientTerms, ReuseComesFromTheChosenOriginBehaviour) {
  RunResults results;
  CaseResult kept = client_case("E11", "curl-long", std::nullopt, 3.75, 60.0);
  kept.details["origin_behaviour"] = kDefaultReuseBehaviour;
  CaseResult drained = client_case("E11", "curl-long", 2.5, 3.75, 60.0);
  drained.details["origin_behaviour"] = "Connection: close once drained";
  results.cases = {client_case("E6", "curl-long", 55.77, 3.75, 60.0), kept, drained};

  auto worst = client_terms(results);
  ASSERT_EQ(worst.size(), 1u);
  EXPECT_TRUE(worst[0].reuse_measured);
  EXPECT_FALSE(worst[0].reuse.has_value());  // never left the kept-open origin

  auto polite = client_terms(results, "Connection: close once drained");
  ASSERT_TRUE(polite.at(0).reuse.has_value());
  EXPECT_DOUBLE_EQ(*polite[0].reuse, 0);  // left sooner than on new connections: no extra time
}

TEST(ClientTerms, UnmeasuredCasesAreLeftOut) {
  RunResults results;
  CaseResult missing = client_case("E6", "go", 1.9, 3.75, 0.0);
  missing.verdict = Verdict::kNotSupported;
  results.cases = {missing, client_case("E1", "python", 1.0, 3.75, 0.0)};
  EXPECT_TRUE(client_terms(results).empty());
}

}  // namespace
}  // namespace cutover::lab
