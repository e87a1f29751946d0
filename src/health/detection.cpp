// detection_window: the detection formula applied to one check's settings.
#include "health/detection.h"

#include <algorithm>

namespace cutover::health {

DetectionWindow detection_window(const CheckSettings& check, std::uint32_t ttl) {
  DetectionRange<std::chrono::milliseconds> range = detection_range(check.interval, check.timeout, check.fall);
  DetectionWindow window;
  window.d_min = range.min;
  window.d_max = range.max;
  window.ttl = ttl;
  window.worst_d_plus_k = window.d_max + std::chrono::seconds(ttl);
  return window;
}

DetectionWindow slowest(const DetectionWindow& a, const DetectionWindow& b) {
  DetectionWindow window = a;
  window.d_min = std::max(a.d_min, b.d_min);
  window.d_max = std::max(a.d_max, b.d_max);
  window.worst_d_plus_k = std::max(a.worst_d_plus_k, b.worst_d_plus_k);
  return window;
}

}  // namespace cutover::health
