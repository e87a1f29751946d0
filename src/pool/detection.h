// The cutover arithmetic of a pool (seed 000, chapter 5): detection D in
// [(F-1)·I + T, F·I + T], the answer TTL as the worst resolver-cache term K, and
// D_max + TTL as the worst case of the two terms the server controls. Pure; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>

#include "pool/pool_spec.h"

namespace cutover::pool {

struct DetectionWindow {
  std::chrono::milliseconds d_min{0};
  std::chrono::milliseconds d_max{0};
  std::uint32_t ttl = 0;
  std::chrono::milliseconds worst_d_plus_k{0};  // d_max + ttl
};

// For one check's settings and a TTL.
DetectionWindow detection_window(const health::CheckSettings& check, std::uint32_t ttl);
// For a pool: the slowest of its endpoints' checks.
DetectionWindow detection_window(const PoolSpec& spec);

}  // namespace cutover::pool
