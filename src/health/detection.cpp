// detection_window: the detection formula applied to one check's settings.
#include "health/detection.h"

#include <algorithm>

#include <fmt/format.h>

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

namespace {

std::string ordinal(std::size_t n) {
  const char* suffix = "th";
  if (n % 100 < 11 || n % 100 > 13) {
    if (n % 10 == 1) suffix = "st";
    if (n % 10 == 2) suffix = "nd";
    if (n % 10 == 3) suffix = "rd";
  }
  return fmt::format("{}{}", n, suffix);
}

}  // namespace

DetectionWindow with_publish_latency(const DetectionWindow& window, std::chrono::milliseconds publish_latency) {
  DetectionWindow out = window;
  auto range = quorum_detection_range(DetectionRange<std::chrono::milliseconds>{window.d_min, window.d_max}, publish_latency);
  out.d_min = range.min;
  out.d_max = range.max;
  out.worst_d_plus_k = window.worst_d_plus_k + publish_latency;
  return out;
}

std::string quorum_detection_rule(const QuorumRule& rule) {
  switch (rule.kind) {
    case QuorumRule::Kind::kLocal:
      return "local rule: the first vantage to say down marks the endpoint down (the fastest vantage's window)";
    case QuorumRule::Kind::kQuorum:
      return fmt::format(
          "quorum {} of the vantages that report: down at the {} fastest vantage's down verdict, so D is that "
          "vantage's window plus L",
          rule.quorum, ordinal(rule.quorum));
    case QuorumRule::Kind::kHealthyAbove:
      return fmt::format(
          "healthy-above {0}%: down once no more than {0}% of the N reporting vantages say up, i.e. at the "
          "(N - floor({0}·N/100))-th fastest down verdict, so D is that vantage's window plus L",
          rule.healthy_above);
  }
  return "";
}

}  // namespace cutover::health
