// ProbeHistory: one endpoint's probes over the last hour (when, pass/fail/error, latency,
// which check), for the console's timeline (docs/console.md). Bounded twice: by age
// (kProbeHistoryWindow) and by entries (a capacity sized from the checks' intervals, at most
// kProbeHistoryCap), so an endpoint costs at most kProbeHistoryCap * sizeof(ProbeTick) bytes
// (about 170 KB) whatever its interval. Each tick carries a sequence number the owner hands
// out, so a reader can ask for only the ticks after the last it saw.
// Not thread-safe: the HealthMonitor serialises access.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "base/clock.h"
#include "health/probe.h"

namespace cutover::health {

constexpr std::chrono::hours kProbeHistoryWindow{1};
// One probe a second for an hour; a shorter interval keeps the last kProbeHistoryCap probes.
constexpr std::size_t kProbeHistoryCap = 3600;

struct ProbeTick {
  std::uint64_t sequence = 0;
  base::SteadyTime at{};
  std::chrono::system_clock::time_point wall;
  ProbeOutcome outcome = ProbeOutcome::kError;
  std::chrono::microseconds latency{0};
  std::size_t check = 0;  // index into the endpoint's checks
};

// Entries an hour of probes needs: per check ceil(window / interval) + 1, in all at most
// kProbeHistoryCap (and at least 1).
std::size_t probe_history_capacity(const std::vector<std::chrono::milliseconds>& intervals);

class ProbeHistory {
 public:
  ProbeHistory() : ProbeHistory(kProbeHistoryCap) {}
  explicit ProbeHistory(std::size_t capacity);

  // Appends `tick` (its sequence above every earlier one), dropping the oldest when full and
  // every tick older than the window before tick.at.
  void record(const ProbeTick& tick);
  // The ticks with a sequence above `after` and no older than the window before `now`, oldest first.
  std::vector<ProbeTick> after(std::uint64_t after, base::SteadyTime now) const;
  // A new capacity (the checks changed on reload); keeps the newest ticks that fit.
  void set_capacity(std::size_t capacity);

  std::size_t size() const { return ticks_.size(); }
  std::size_t capacity() const { return capacity_; }

 private:
  void trim(base::SteadyTime now);

  std::size_t capacity_;
  std::deque<ProbeTick> ticks_;  // oldest first, at most capacity_
};

}  // namespace cutover::health
