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

}  // namespace cutover::pool
