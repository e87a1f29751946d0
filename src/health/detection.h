// The detection time D of a health check: how long after an endpoint stops answering its
// check marks it down. D lies in [(F-1)·I + T, F·I + T] for interval I, timeout T and fall
// threshold F (docs/pools.md, "Detection"), and D_max + TTL is the worst case of the two terms
// a server controls (docs/tools.md, "cutover calc"). Pure functions; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>

#include <string>

#include "health/check_settings.h"
#include "health/quorum.h"

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

// Detection with a quorum of remote checkers (docs/cluster.md, "Detection with a quorum").
// The endpoint goes down at the verdict of the K-th fastest vantage, K being what the rule
// needs; each vantage's own window is the formula above, and its verdict then takes L (the
// checker's publish to etcd plus the server's watch) to reach the server. On identical
// settings the window is [(F-1)·I + T, F·I + T + L]: the vantages' probe phases are not
// aligned, so the K-th fastest can be as early as the fastest, and the lower bound stays
// (F-1)·I + T (L is not a guaranteed minimum either).
//
// L's default: an assumption, not a measurement (the verdict-to-answer benchmark of issue 15
// is not built); etcd's own round trips on loopback are a few milliseconds.
inline constexpr std::chrono::milliseconds kDefaultPublishLatency{50};

template <typename Duration>
constexpr DetectionRange<Duration> quorum_detection_range(DetectionRange<Duration> single, Duration publish_latency) {
  return {single.min, single.max + publish_latency};
}

// `window` (one checker's) with L added to its upper terms.
DetectionWindow with_publish_latency(const DetectionWindow& window, std::chrono::milliseconds publish_latency);

// One sentence saying which vantage's verdict marks the endpoint down under `rule`.
std::string quorum_detection_rule(const QuorumRule& rule);

}  // namespace cutover::health
