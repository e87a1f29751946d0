// The monotonic readings are CLOCK_MONOTONIC and the same source as RealClock::now(): the lab
// compares them across processes and sleeps on them with clock_nanosleep(CLOCK_MONOTONIC).
#include "base/clock.h"

#include <gtest/gtest.h>
#include <time.h>

#include <cstdint>

namespace cutover::base {
namespace {

std::int64_t clock_monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

std::int64_t count_ns(SteadyTime time) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
}

TEST(ClockTest, MonotonicNsReadsClockMonotonic) {
  std::int64_t before = clock_monotonic_ns();
  std::int64_t reading = monotonic_ns();
  std::int64_t after = clock_monotonic_ns();
  EXPECT_LE(before, reading);
  EXPECT_LE(reading, after);
}

TEST(ClockTest, RealClockAndMonotonicNsAreOneSource) {
  RealClock clock;
  std::int64_t before = monotonic_ns();
  std::int64_t reading = count_ns(clock.now());
  std::int64_t after = monotonic_ns();
  EXPECT_LE(before, reading);
  EXPECT_LE(reading, after);
}

TEST(ClockTest, SecondsBetweenReadings) {
  EXPECT_DOUBLE_EQ(seconds_between(1'000'000'000, 3'500'000'000), 2.5);
  EXPECT_DOUBLE_EQ(seconds_between(3'500'000'000, 1'000'000'000), -2.5);
}

TEST(ClockTest, SleepUntilReachesTheDeadline) {
  std::int64_t deadline = monotonic_ns() + 2'000'000;
  sleep_until(deadline);
  EXPECT_GE(monotonic_ns(), deadline);
  sleep_until(deadline - 1'000'000'000);  // passed: returns at once
}

TEST(ClockTest, RealtimePhaseIsAFractionOfASecond) {
  double phase = realtime_phase();
  EXPECT_GE(phase, 0.0);
  EXPECT_LT(phase, 1.0);
}

TEST(ClockTest, SleepUntilPhaseWaitsAtLeastTheMinimum) {
  std::int64_t before = monotonic_ns();
  sleep_until_phase(realtime_phase(), 20'000'000);
  EXPECT_GE(monotonic_ns() - before, 20'000'000);
}

}  // namespace
}  // namespace cutover::base
