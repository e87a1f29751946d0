// EndpointCounters: down time, last change and flaps of one endpoint.
#include "health/endpoint_counters.h"

#include <algorithm>

namespace cutover::health {

void EndpointCounters::record(HealthState from, HealthState to, base::SteadyTime now,
                              std::chrono::system_clock::time_point wall) {
  if (from == to) return;
  last_change_ = wall;
  if (to == HealthState::kDown && !down_since_) down_since_ = now;
  if (to != HealthState::kDown && down_since_) {
    down_before_ += now - *down_since_;
    down_since_.reset();
  }
  if (to != HealthState::kUnknown) {
    if (last_verdict_ && *last_verdict_ != to) flaps_.push_back(now);
    last_verdict_ = to;
  }
  while (!flaps_.empty() && now - flaps_.front() > kFlapWindow) flaps_.pop_front();
}

std::chrono::milliseconds EndpointCounters::down_total(base::SteadyTime now) const {
  auto total = down_before_;
  if (down_since_ && now > *down_since_) total += now - *down_since_;
  return std::chrono::duration_cast<std::chrono::milliseconds>(total);
}

std::size_t EndpointCounters::flaps_last_hour(base::SteadyTime now) const {
  return static_cast<std::size_t>(
      std::count_if(flaps_.begin(), flaps_.end(), [&](base::SteadyTime at) { return now - at <= kFlapWindow; }));
}

}  // namespace cutover::health
