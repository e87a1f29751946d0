// Clock: the time source of timing logic (health checks, suspicion TTLs), so state
// machines can be driven by a FakeClock in unit tests. RealClock is thread-safe;
// FakeClock is thread-safe too (its time is one atomic).
#pragma once

#include <atomic>
#include <chrono>

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

}  // namespace cutover::base
