// HealthSnapshot lookup and probe statistics.
#include "health/health_snapshot.h"

#include <algorithm>
#include <tuple>

namespace cutover::health {

const EndpointView* HealthSnapshot::find(const std::string& pool, const std::string& address) const {
  auto it = std::lower_bound(endpoints.begin(), endpoints.end(), std::tie(pool, address),
                             [](const EndpointView& view, const auto& key) {
                               return std::tie(view.pool, view.address) < key;
                             });
  if (it == endpoints.end() || it->pool != pool || it->address != address) return nullptr;
  return &*it;
}

void ProbeStats::record(const ProbeResult& result) {
  if (result.outcome == ProbeOutcome::kPass) ++passes;
  if (result.outcome == ProbeOutcome::kFail) ++failures;
  if (result.outcome == ProbeOutcome::kError) ++errors;
  double seconds = std::chrono::duration<double>(result.latency).count();
  latency_sum_seconds += seconds;
  std::size_t bucket = 0;
  while (bucket < kLatencyBuckets.size() && seconds > kLatencyBuckets[bucket]) ++bucket;
  ++latency_counts[bucket];
}

}  // namespace cutover::health
