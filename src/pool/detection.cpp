// detection_window: the chapter 5 formulas, taken over every endpoint's check.
#include "pool/detection.h"

#include <algorithm>

namespace cutover::pool {

DetectionWindow detection_window(const health::CheckSettings& check, std::uint32_t ttl) {
  DetectionWindow window;
  window.d_min = (check.fall - 1) * check.interval + check.timeout;
  window.d_max = check.fall * check.interval + check.timeout;
  window.ttl = ttl;
  window.worst_d_plus_k = window.d_max + std::chrono::seconds(ttl);
  return window;
}

DetectionWindow detection_window(const PoolSpec& spec) {
  DetectionWindow window = detection_window(spec.check, spec.ttl);
  for (const auto& endpoint : spec.endpoints) {
    DetectionWindow own = detection_window(endpoint.check, spec.ttl);
    window.d_min = std::max(window.d_min, own.d_min);
    window.d_max = std::max(window.d_max, own.d_max);
    window.worst_d_plus_k = std::max(window.worst_d_plus_k, own.worst_d_plus_k);
  }
  return window;
}

}  // namespace cutover::pool
