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

// With a quorum (docs/cluster.md, "Detection with a quorum"): L adds to the upper bound and
// to D_max + TTL only; the lower bound stays (F-1)·I + T.
TEST(Detection, AQuorumAddsThePublishLatencyToTheUpperBoundOnly) {
  CheckSettings check;
  check.interval = std::chrono::seconds(5);
  check.fall = 3;
  check.timeout = std::chrono::seconds(1);
  DetectionWindow single = detection_window(check, 20);
  DetectionWindow quorum = with_publish_latency(single, kDefaultPublishLatency);
  EXPECT_EQ(quorum.d_min, std::chrono::seconds(11));
  EXPECT_EQ(quorum.d_max, std::chrono::milliseconds(16050));
  EXPECT_EQ(quorum.worst_d_plus_k, std::chrono::milliseconds(36050));
  EXPECT_EQ(quorum.ttl, 20u);
  using Seconds = std::chrono::duration<double>;
  auto range = quorum_detection_range(detection_range(Seconds(10), Seconds(2), 3), Seconds(0.2));
  EXPECT_DOUBLE_EQ(range.min.count(), 22);
  EXPECT_DOUBLE_EQ(range.max.count(), 32.2);
  EXPECT_NE(quorum_detection_rule(QuorumRule{QuorumRule::Kind::kQuorum, 2, 0}).find("2nd fastest"), std::string::npos);
  EXPECT_NE(quorum_detection_rule(QuorumRule{QuorumRule::Kind::kHealthyAbove, 1, 18}).find("18%"), std::string::npos);
}

}  // namespace
}  // namespace cutover::health
