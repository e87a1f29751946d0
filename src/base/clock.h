// The one clock. Clock is the time source of timing logic (health checks, suspicion TTLs),
// so state machines can be driven by a FakeClock in unit tests; the free functions below are
// the lab's readings of the same CLOCK_MONOTONIC in nanoseconds, and its realtime phase.
// Everything here is thread-safe (FakeClock's time is one atomic).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace cutover::base {

using SteadyTime = std::chrono::steady_clock::time_point;

class Clock {
 public:
  virtual ~Clock() = default;
  // Monotonic time: never jumps with wall-clock changes, so intervals stay exact.
  virtual SteadyTime now() const = 0;
  // Wall-clock time, only for showing when something happened.
  virtual std::chrono::system_clock::time_point wall_now() const = 0;
};

class RealClock : public Clock {
 public:
  SteadyTime now() const override { return std::chrono::steady_clock::now(); }
  std::chrono::system_clock::time_point wall_now() const override { return std::chrono::system_clock::now(); }
};

// Starts at an arbitrary fixed point and moves only when told to.
class FakeClock : public Clock {
 public:
  SteadyTime now() const override { return SteadyTime(std::chrono::nanoseconds(now_.load())); }
  std::chrono::system_clock::time_point wall_now() const override {
    return std::chrono::system_clock::time_point(std::chrono::nanoseconds(kWallEpoch + now_.load()));
  }
  void advance(std::chrono::nanoseconds step) { now_.fetch_add(step.count()); }

 private:
  static constexpr long long kWallEpoch = 1'700'000'000'000'000'000LL;  // Nov 2023, in ns
  std::atomic<long long> now_{1'000'000'000'000LL};
};

// Converts a steady time point to wall-clock time, as seen from `clock` now.
inline std::chrono::system_clock::time_point to_wall(const Clock& clock, SteadyTime when) {
  return clock.wall_now() -
         std::chrono::duration_cast<std::chrono::system_clock::duration>(clock.now() - when);
}

// CLOCK_MONOTONIC in nanoseconds: the reading RealClock::now() makes (std::chrono::steady_clock
// is CLOCK_MONOTONIC on Linux), as a plain number. The lab runner and the lab authority (a
// separate `cutover serve --lab` process) read it alike, so change times and poll times taken
// in either process compare directly.
std::int64_t monotonic_ns();
// Seconds between two monotonic_ns() readings.
inline double seconds_between(std::int64_t from_ns, std::int64_t to_ns) {
  return static_cast<double>(to_ns - from_ns) / 1e9;
}
// Sleeps until monotonic_ns() reaches `deadline_ns` (returns at once if it passed).
void sleep_until(std::int64_t deadline_ns);
// Fraction of the current CLOCK_REALTIME second, in [0, 1).
double realtime_phase();
// Sleeps until CLOCK_REALTIME is `phase` into a second, at least `min_wait_ns` from now.
// Resolvers count TTLs in whole realtime seconds, so cache fills placed this way share one
// rounding.
void sleep_until_phase(double phase, std::int64_t min_wait_ns = 0);

}  // namespace cutover::base
