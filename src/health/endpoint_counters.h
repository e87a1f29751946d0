// EndpointCounters: what operators ask of an endpoint's history beside the transition
// count (cutover_health_transitions_total): how long it has been down in all, when its
// state last changed, and how often it flapped within the last hour. Fed with every change
// of the effective state; pure logic over the times it is given (fake-clock testable).
// Not thread-safe: the HealthMonitor serialises access.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>

#include "base/clock.h"
#include "health/combine.h"

namespace cutover::health {

// The window of flaps_last_hour().
constexpr std::chrono::hours kFlapWindow{1};

class EndpointCounters {
 public:
  // The effective state changed from `from` to `to` at `now` (`wall` for display).
  void record(HealthState from, HealthState to, base::SteadyTime now, std::chrono::system_clock::time_point wall);

  // Time spent down (drained counts: the endpoint was out of answers), up to `now`.
  std::chrono::milliseconds down_total(base::SteadyTime now) const;
  // Flaps within kFlapWindow before `now`. A flap is a change between up and down, in
  // either direction, possibly through unknown; the first verdict after start is none.
  std::size_t flaps_last_hour(base::SteadyTime now) const;
  std::optional<std::chrono::system_clock::time_point> last_change() const { return last_change_; }

 private:
  std::optional<base::SteadyTime> down_since_;
  std::chrono::nanoseconds down_before_{0};  // closed down periods
  std::optional<HealthState> last_verdict_;  // the last up or down
  std::deque<base::SteadyTime> flaps_;       // pruned to kFlapWindow on record()
  std::optional<std::chrono::system_clock::time_point> last_change_;
};

}  // namespace cutover::health
