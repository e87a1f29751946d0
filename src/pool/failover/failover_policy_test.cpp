// failover policy: best priority group with a serving member, table-driven.
#include "pool/failover/failover_policy.h"

#include <gtest/gtest.h>

namespace cutover::pool {
namespace {

std::vector<std::size_t> chosen(const Selection& selection) {
  std::vector<std::size_t> out;
  for (const auto& member : selection.members) out.push_back(member.index);
  return out;
}

TEST(FailoverPolicy, PicksTheBestPriorityGroupThatServes) {
  struct Case {
    std::vector<Candidate> candidates;
    std::vector<std::size_t> expected;
  };
  std::vector<Case> cases = {
      {{{0, 1, 1, true}, {1, 2, 1, true}}, {0}},                       // primary healthy
      {{{0, 1, 1, false}, {1, 2, 1, true}}, {1}},                      // primary failed
      {{{0, 1, 1, true}, {1, 1, 1, true}, {2, 2, 1, true}}, {0, 1}},   // a whole group answers
      {{{0, 1, 1, false}, {1, 1, 1, true}, {2, 2, 1, true}}, {1}},     // group keeps its survivors
      {{{0, 3, 1, true}, {1, 2, 1, false}, {2, 5, 1, true}}, {0}},     // order does not matter
      {{{0, 1, 1, false}, {1, 2, 1, false}}, {}},                      // nothing healthy
  };
  for (const auto& test : cases) {
    EXPECT_EQ(chosen(choose_failover(PoolSpec{}, test.candidates)), test.expected);
  }
}

}  // namespace
}  // namespace cutover::pool
