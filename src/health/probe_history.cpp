// ProbeHistory: an hour of one endpoint's probes, bounded in entries.
#include "health/probe_history.h"

#include <algorithm>

namespace cutover::health {

std::size_t probe_history_capacity(const std::vector<std::chrono::milliseconds>& intervals) {
  std::size_t total = 0;
  const auto window = std::chrono::duration_cast<std::chrono::milliseconds>(kProbeHistoryWindow);
  for (auto interval : intervals) {
    auto step = std::max(interval, std::chrono::milliseconds(1));
    total += static_cast<std::size_t>((window.count() + step.count() - 1) / step.count()) + 1;
    if (total >= kProbeHistoryCap) return kProbeHistoryCap;
  }
  return std::max<std::size_t>(total, 1);
}

ProbeHistory::ProbeHistory(std::size_t capacity) : capacity_(std::clamp<std::size_t>(capacity, 1, kProbeHistoryCap)) {}

void ProbeHistory::record(const ProbeTick& tick) {
  ticks_.push_back(tick);
  while (ticks_.size() > capacity_) ticks_.pop_front();
  trim(tick.at);
}

void ProbeHistory::trim(base::SteadyTime now) {
  while (!ticks_.empty() && now - ticks_.front().at > kProbeHistoryWindow) ticks_.pop_front();
}

std::vector<ProbeTick> ProbeHistory::after(std::uint64_t after, base::SteadyTime now) const {
  std::vector<ProbeTick> out;
  // Sequences rise along the deque: skip the seen ones from the back.
  auto first = std::partition_point(ticks_.begin(), ticks_.end(),
                                    [after](const ProbeTick& tick) { return tick.sequence <= after; });
  for (auto it = first; it != ticks_.end(); ++it) {
    if (now - it->at <= kProbeHistoryWindow) out.push_back(*it);
  }
  return out;
}

void ProbeHistory::set_capacity(std::size_t capacity) {
  capacity_ = std::clamp<std::size_t>(capacity, 1, kProbeHistoryCap);
  while (ticks_.size() > capacity_) ticks_.pop_front();
}

}  // namespace cutover::health
