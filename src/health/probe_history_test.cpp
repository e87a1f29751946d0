// ProbeHistory on the fake clock: capacity from the intervals, the entry bound, the hour's
// bound, and reading only the ticks after a sequence.
#include "health/probe_history.h"

#include <gtest/gtest.h>

namespace cutover::health {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

class ProbeHistoryTest : public ::testing::Test {
 protected:
  void probe(ProbeHistory& history, ProbeOutcome outcome, std::chrono::nanoseconds then) {
    history.record(ProbeTick{++sequence_, clock_.now(), clock_.wall_now(), outcome, std::chrono::microseconds(1500), 0});
    clock_.advance(then);
  }
  base::FakeClock clock_;
  std::uint64_t sequence_ = 0;
};

TEST(ProbeHistoryCapacity, IsAnHourOfEachCheckCappedOverall) {
  EXPECT_EQ(probe_history_capacity({seconds(10)}), 361u);
  EXPECT_EQ(probe_history_capacity({seconds(10), seconds(60)}), 361u + 61u);
  EXPECT_EQ(probe_history_capacity({milliseconds(1000)}), kProbeHistoryCap);  // 3601 capped
  EXPECT_EQ(probe_history_capacity({milliseconds(100)}), kProbeHistoryCap);
  EXPECT_EQ(probe_history_capacity({}), 1u);
}

TEST_F(ProbeHistoryTest, KeepsAnHourAndReadsOnlyWhatCameAfter) {
  ProbeHistory history(probe_history_capacity({seconds(10)}));
  for (int i = 0; i < 30; ++i) probe(history, i % 3 == 0 ? ProbeOutcome::kFail : ProbeOutcome::kPass, seconds(10));
  auto all = history.after(0, clock_.now());
  ASSERT_EQ(all.size(), 30u);
  EXPECT_EQ(all.front().sequence, 1u);
  EXPECT_EQ(all.front().outcome, ProbeOutcome::kFail);
  EXPECT_EQ(all.back().sequence, 30u);
  EXPECT_EQ(all.back().latency, std::chrono::microseconds(1500));
  auto newer = history.after(27, clock_.now());
  ASSERT_EQ(newer.size(), 3u);
  EXPECT_EQ(newer.front().sequence, 28u);
  EXPECT_TRUE(history.after(30, clock_.now()).empty());

  // An hour later with no probe, nothing is read; the next probe drops the old ones too.
  clock_.advance(minutes(60));
  EXPECT_TRUE(history.after(0, clock_.now()).empty());
  probe(history, ProbeOutcome::kPass, seconds(0));
  EXPECT_EQ(history.size(), 1u);
  EXPECT_EQ(history.after(0, clock_.now()).at(0).sequence, 31u);
}

TEST_F(ProbeHistoryTest, IsBoundedInEntriesWhateverTheInterval) {
  ProbeHistory history(kProbeHistoryCap);
  for (std::size_t i = 0; i < kProbeHistoryCap + 500; ++i) probe(history, ProbeOutcome::kPass, milliseconds(100));
  EXPECT_EQ(history.size(), kProbeHistoryCap);
  auto all = history.after(0, clock_.now());
  ASSERT_EQ(all.size(), kProbeHistoryCap);
  EXPECT_EQ(all.front().sequence, 501u);  // the oldest went first

  history.set_capacity(10);
  EXPECT_EQ(history.size(), 10u);
  EXPECT_EQ(history.after(0, clock_.now()).front().sequence, kProbeHistoryCap + 491);
  ProbeHistory huge(1'000'000);
  EXPECT_EQ(huge.capacity(), kProbeHistoryCap);
}

}  // namespace
}  // namespace cutover::health
