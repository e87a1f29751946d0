// all-healthy policy: every serving endpoint in order, capped.
#include "pool/all_healthy/all_healthy_policy.h"

#include <gtest/gtest.h>

namespace cutover::pool {
namespace {

TEST(AllHealthyPolicy, AnswersServingEndpointsUpToTheCap) {
  std::vector<Candidate> candidates = {{0, 1, 1, true}, {1, 1, 1, false}, {2, 1, 1, true}, {3, 1, 1, true}};
  PoolSpec spec;
  Selection all = choose_all_healthy(spec, candidates);
  ASSERT_EQ(all.members.size(), 3u);
  EXPECT_EQ(all.members[1].index, 2u);
  EXPECT_EQ(all.per_query, 0u);
  spec.max_answers = 2;
  EXPECT_EQ(choose_all_healthy(spec, candidates).members.size(), 2u);
  for (auto& candidate : candidates) candidate.serving = false;
  EXPECT_TRUE(choose_all_healthy(spec, candidates).members.empty());
}

}  // namespace
}  // namespace cutover::pool
