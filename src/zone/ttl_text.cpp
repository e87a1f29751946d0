// TTL text parsing with unit suffixes and overflow checks.
#include "zone/ttl_text.h"

#include <fmt/format.h>

namespace cutover::zone {
namespace {

// Seconds per unit letter, or 0 if the letter is not a unit.
std::uint64_t unit_seconds(char c) {
  switch (c) {
    case 's': case 'S': return 1;
    case 'm': case 'M': return 60;
    case 'h': case 'H': return 3600;
    case 'd': case 'D': return 86400;
    case 'w': case 'W': return 604800;
    default: return 0;
  }
}

}  // namespace

base::Result<std::uint32_t> parse_ttl(std::string_view text) {
  using base::ErrorCode;
  if (!looks_like_ttl(text)) return base::make_error(ErrorCode::kMalformed, fmt::format("'{}' is not a TTL", text));
  std::uint64_t total = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::uint64_t number = 0;
    std::size_t digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
      number = number * 10 + static_cast<std::uint64_t>(text[i] - '0');
      if (number > 0xFFFFFFFFu) break;
    }
    if (digits == 0 || number > 0xFFFFFFFFu) {
      return base::make_error(ErrorCode::kMalformed, fmt::format("'{}' is not a TTL", text));
    }
    std::uint64_t multiplier = 1;  // a number without a unit, alone or last ("1h30"), is seconds
    if (i < text.size()) {
      multiplier = unit_seconds(text[i]);
      if (multiplier == 0) return base::make_error(ErrorCode::kMalformed, fmt::format("'{}' is not a TTL", text));
      ++i;
    }
    total += number * multiplier;
    if (total > 0xFFFFFFFFu) {
      return base::make_error(ErrorCode::kInvalidArgument, fmt::format("TTL '{}' does not fit in 32 bits", text));
    }
  }
  return static_cast<std::uint32_t>(total);
}

}  // namespace cutover::zone
