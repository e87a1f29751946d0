// weighted policy and the weighted draw behind it.
#include "pool/weighted/weighted_policy.h"

#include <gtest/gtest.h>

#include "pool/pool_answers.h"

namespace cutover::pool {
namespace {

TEST(WeightedPolicy, DrawsAmongServingEndpoints) {
  std::vector<Candidate> candidates = {{0, 1, 5, true}, {1, 1, 1, false}, {2, 1, 2, true}};
  PoolSpec spec;
  Selection selection = choose_weighted(spec, candidates);
  EXPECT_EQ(selection.per_query, 1u);
  ASSERT_EQ(selection.members.size(), 2u);
  EXPECT_EQ(selection.members[1].weight, 2u);
  spec.max_answers = 2;
  EXPECT_EQ(choose_weighted(spec, candidates).per_query, 2u);
}

// A deterministic source that walks every point of the wheel once.
struct Sequence {
  std::uint64_t next = 0;
  std::uint64_t operator()() { return next++; }
};

TEST(WeightedDraw, EachIndexGetsItsShareOfTheWheel) {
  std::vector<std::uint32_t> weights = {3, 1, 6};
  std::vector<int> counts(3, 0);
  Sequence random;
  for (int i = 0; i < 10; ++i) counts[weighted_draw(weights, 1, random).front()]++;
  EXPECT_EQ(counts, (std::vector<int>{3, 1, 6}));
}

TEST(WeightedDraw, DrawsDistinctIndexesAndStopsWhenExhausted) {
  std::vector<std::uint32_t> weights = {1, 1, 1};
  Sequence random;
  auto picked = weighted_draw(weights, 5, random);
  ASSERT_EQ(picked.size(), 3u);
  std::sort(picked.begin(), picked.end());
  EXPECT_EQ(picked, (std::vector<std::size_t>{0, 1, 2}));
}

}  // namespace
}  // namespace cutover::pool
