// The detection time D of a health check: how long after an endpoint stops answering its
// check marks it down. D lies in [(F-1)·I + T, F·I + T] for interval I, timeout T and fall
// threshold F (docs/pools.md, "Detection"), and D_max + TTL is the worst case of the two terms
// a server controls (docs/tools.md, "cutover calc"). Pure functions; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>

#include "health/check_settings.h"

namespace cutover::health {

template <typename Duration>
struct DetectionRange {
  Duration min{};
  Duration max{};
};

// The one statement of the formula, for any duration type (`cutover calc` works in seconds
// as double, pools in milliseconds).
template <typename Duration, typename Count>
constexpr DetectionRange<Duration> detection_range(Duration interval, Duration timeout, Count fall) {
  return {(fall - 1) * interval + timeout, fall * interval + timeout};
}

struct DetectionWindow {
  std::chrono::milliseconds d_min{0};
  std::chrono::milliseconds d_max{0};
  std::uint32_t ttl = 0;
  std::chrono::milliseconds worst_d_plus_k{0};  // d_max + ttl
};

// For one check's settings and an answer TTL.
DetectionWindow detection_window(const CheckSettings& check, std::uint32_t ttl);

// The slower of two windows, term by term (a pool is as slow as its slowest check).
DetectionWindow slowest(const DetectionWindow& a, const DetectionWindow& b);

}  // namespace cutover::health
