// Combine: the K-of-n rule for an endpoint's checks.
#include "health/combine.h"

#include <algorithm>
#include <charconv>

namespace cutover::health {

std::size_t Combine::needed(std::size_t checks) const {
  switch (kind) {
    case CombineKind::kAll: return checks;
    case CombineKind::kAny: return checks == 0 ? 0 : 1;
    case CombineKind::kAtLeast: return std::min(at_least, checks);
  }
  return checks;
}

std::string Combine::to_text() const {
  switch (kind) {
    case CombineKind::kAll: return "all";
    case CombineKind::kAny: return "any";
    case CombineKind::kAtLeast: return "at-least-" + std::to_string(at_least);
  }
  return "all";
}

std::optional<Combine> parse_combine(std::string_view text) {
  if (text == "all") return Combine{CombineKind::kAll, 1};
  if (text == "any") return Combine{CombineKind::kAny, 1};
  constexpr std::string_view kPrefix = "at-least-";
  if (text.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string_view digits = text.substr(kPrefix.size());
  std::size_t k = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || k < 1 || k > 64) return std::nullopt;
  return Combine{CombineKind::kAtLeast, k};
}

HealthState combine_states(const Combine& combine, std::span<const HealthState> states) {
  std::size_t n = states.size();
  std::size_t k = combine.needed(n);
  auto up = static_cast<std::size_t>(std::count(states.begin(), states.end(), HealthState::kUp));
  auto down = static_cast<std::size_t>(std::count(states.begin(), states.end(), HealthState::kDown));
  if (n == 0) return HealthState::kUnknown;
  if (up >= k) return HealthState::kUp;
  if (down > n - k) return HealthState::kDown;
  return HealthState::kUnknown;
}

}  // namespace cutover::health
