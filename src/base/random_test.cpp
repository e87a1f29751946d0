#include "base/random.h"

#include <gtest/gtest.h>

#include <set>

namespace cutover::base {
namespace {

TEST(RandomMessageId, SpreadsOverTheSixteenBits) {
  // 256 IDs from a uniform 16-bit source: the chance of fewer than 200 distinct values, or of
  // the high byte never set, is far below 1e-30.
  std::set<std::uint16_t> seen;
  bool high = false;
  for (int i = 0; i < 256; ++i) {
    std::uint16_t id = random_message_id();
    seen.insert(id);
    high = high || id > 0xFF;
  }
  EXPECT_GT(seen.size(), 200u);
  EXPECT_TRUE(high);
}

}  // namespace
}  // namespace cutover::base
