// weighted_draw: repeated roulette-wheel draws without replacement. Weighted sets are small
// (a handful of endpoints), so the linear walk beats any index structure.
#pragma once

#include <algorithm>
#include <numeric>
#include <span>

namespace cutover::auth {

// The allocation-free form the answer fast path uses: draws up to out.size() distinct
// indexes into `out` and returns how many; `taken` holds one zeroed flag per weight.
template <typename Random>
std::size_t weighted_draw_into(std::span<const std::uint32_t> weights, Random& random, std::span<std::uint8_t> taken,
                               std::span<std::size_t> out) {
  std::size_t picked = 0;
  std::uint64_t remaining = std::accumulate(weights.begin(), weights.end(), std::uint64_t{0});
  while (picked < out.size() && remaining > 0) {
    std::uint64_t point = static_cast<std::uint64_t>(random()) % remaining;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      if (taken[i] != 0) continue;
      if (point < weights[i]) {
        taken[i] = 1;
        remaining -= weights[i];
        out[picked++] = i;
        break;
      }
      point -= weights[i];
    }
  }
  return picked;
}

template <typename Random>
std::vector<std::size_t> weighted_draw(const std::vector<std::uint32_t>& weights, std::size_t count, Random& random) {
  std::vector<std::size_t> picked(std::min(count, weights.size()));
  std::vector<std::uint8_t> taken(weights.size(), 0);
  picked.resize(weighted_draw_into(std::span<const std::uint32_t>(weights), random, std::span<std::uint8_t>(taken),
                                   std::span<std::size_t>(picked)));
  return picked;
}

}  // namespace cutover::auth
