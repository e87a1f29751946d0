// Unit tests for the detection formula: D in [(F-1)·I + T, F·I + T], and D_max + TTL.
#include "health/detection.h"

#include <gtest/gtest.h>

namespace cutover::health {
namespace {

TEST(Detection, WindowFollowsChapterFive) {
  CheckSettings check;
  check.interval = std::chrono::seconds(30);
  check.fall = 4;
  check.timeout = std::chrono::seconds(10);
  DetectionWindow window = detection_window(check, 30);  // Azure's documented example
  EXPECT_EQ(window.d_min, std::chrono::seconds(100));
  EXPECT_EQ(window.d_max, std::chrono::seconds(130));
  EXPECT_EQ(window.worst_d_plus_k, std::chrono::seconds(160));
}

}  // namespace
}  // namespace cutover::health
