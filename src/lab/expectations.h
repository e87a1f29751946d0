// The arithmetic behind each expected value (docs/lab.md, "What runs"; RFC 2308 for negative answers). Pure functions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

namespace cutover::lab {

// E1: the TTL a resolver should count: the record TTL raised to a floor, then cut to a cap.
inline double clamped_ttl(std::uint32_t ttl, std::optional<std::uint32_t> floor, std::optional<std::uint32_t> cap) {
  std::uint32_t value = ttl;
  if (floor) value = std::max(value, *floor);
  if (cap) value = std::min(value, *cap);
  return value;
}

// E2: RFC 2308 §5 negative TTL, min(SOA TTL, MINIMUM), then the resolver's negative cap.
inline double negative_ttl(std::uint32_t soa_ttl, std::uint32_t minimum, std::optional<std::uint32_t> cap) {
  std::uint32_t value = std::min(soa_ttl, minimum);
  if (cap) value = std::min(value, *cap);
  return value;
}

// E4/E5: K = TTL - (change - fill), floored at 0, to the millisecond.
inline double remaining_ttl(double ttl, double change_after_fill) {
  double value = std::max(0.0, ttl - change_after_fill);
  return static_cast<double>(static_cast<std::int64_t>(value * 1000 + 0.5)) / 1000;
}

// E3: the last answered poll: the TTL, plus the stale window when serve-stale is on.
inline double last_answer(std::uint32_t ttl, std::optional<std::uint32_t> stale_window) {
  return ttl + stale_window.value_or(0);
}

}  // namespace cutover::lab
