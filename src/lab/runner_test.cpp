// Unit tests: which cases `--cases` selects.
#include "lab/runner.h"

#include <gtest/gtest.h>

namespace cutover::lab {
namespace {

TEST(CaseSelection, CommaSeparatedGlobsOverCaseNames) {
  EXPECT_TRUE(case_selected("", "ttl5-default"));  // no --cases: every case
  EXPECT_TRUE(case_selected("ttl20-*", "ttl20-cap8"));
  EXPECT_FALSE(case_selected("ttl20-*", "ttl5-default"));
  EXPECT_TRUE(case_selected("drop-stale15,servfail", "servfail"));
  EXPECT_TRUE(case_selected("drop-stale15,servfail", "drop-stale15"));
  EXPECT_FALSE(case_selected("drop-stale15,servfail", "servfail-default"));
  EXPECT_FALSE(case_selected(",", "x"));
}

TEST(ProgressLine, NamesTheExpectationTheDeltaIsTakenAgainst) {
  CaseResult result;
  result.verdict = Verdict::kPass;
  result.measured = 14.0;
  result.expected = {{"DS TTL", 28.5, 28.5}, {"TTL cap", 12.5, 12.5}};
  result.matched = "TTL cap";
  result.delta = 1.5;
  EXPECT_EQ(progress_value(result), "pass 14.000 s (expected TTL cap 12.5, delta +1.500)");
  result.expected = {{"TTL", 5, 5}};
  result.matched = "TTL";
  result.measured = 5.602;
  result.delta = 0.602;
  EXPECT_EQ(progress_value(result), "pass 5.602 s (expected 5, delta +0.602)");
}

}  // namespace
}  // namespace cutover::lab
