// TTL values in master-file text: plain seconds or unit groups like 1h30m / 1W2D
// (s, m, h, d, w; any case), as BIND, NSD and Knot accept them. Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <string_view>

#include "base/result.h"

namespace cutover::zone {

// RFC 2181 §8: a TTL is an unsigned 31-bit number.
constexpr std::uint32_t kMaxTtl = 0x7FFFFFFF;

// Parses a TTL; fails if the text is not a TTL or its value does not fit in 32 bits.
// Values above kMaxTtl are returned as they are; the caller decides what to do with them.
base::Result<std::uint32_t> parse_ttl(std::string_view text);

// True if `text` starts like a TTL (a digit), which is how an omitted-field record tells
// a TTL from a class or type.
inline bool looks_like_ttl(std::string_view text) { return !text.empty() && text[0] >= '0' && text[0] <= '9'; }

}  // namespace cutover::zone
