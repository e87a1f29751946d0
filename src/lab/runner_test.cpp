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

}  // namespace
}  // namespace cutover::lab
