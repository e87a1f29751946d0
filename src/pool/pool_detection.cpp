// detection_window over every endpoint's check.
#include "pool/pool_detection.h"

namespace cutover::pool {

health::DetectionWindow detection_window(const PoolSpec& spec) {
  health::DetectionWindow window = health::detection_window(spec.check, spec.ttl);
  for (const auto& endpoint : spec.endpoints) {
    window = health::slowest(window, health::detection_window(endpoint.check, spec.ttl));
  }
  return window;
}

bool has_remote_checkers(const PoolSpec& spec) { return spec.checkers.kind != health::QuorumRule::Kind::kLocal; }

health::DetectionWindow served_detection_window(const PoolSpec& spec) {
  health::DetectionWindow window = detection_window(spec);
  return has_remote_checkers(spec) ? health::with_publish_latency(window, health::kDefaultPublishLatency) : window;
}

}  // namespace cutover::pool
