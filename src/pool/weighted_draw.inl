// weighted_draw: repeated roulette-wheel draws without replacement. Pools are small
// (a handful of endpoints), so the linear walk beats any index structure.
#pragma once

#include <numeric>

namespace cutover::pool {

template <typename Random>
std::vector<std::size_t> weighted_draw(const std::vector<std::uint32_t>& weights, std::size_t count, Random& random) {
  std::vector<std::size_t> picked;
  std::vector<bool> taken(weights.size(), false);
  std::uint64_t remaining = std::accumulate(weights.begin(), weights.end(), std::uint64_t{0});
  while (picked.size() < count && remaining > 0) {
    std::uint64_t point = static_cast<std::uint64_t>(random()) % remaining;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      if (taken[i]) continue;
      if (point < weights[i]) {
        taken[i] = true;
        remaining -= weights[i];
        picked.push_back(i);
        break;
      }
      point -= weights[i];
    }
  }
  return picked;
}

}  // namespace cutover::pool
