// SOA serial number arithmetic (RFC 1982): 32-bit serials compared on a circle, so a zone
// can keep incrementing past 2^32 - 1. Pure functions; thread-safe.
#pragma once

#include <cstdint>

namespace cutover::store {

// RFC 1982 §3.1 with SERIAL_BITS = 32: adds 1, wrapping to 0 after 2^32 - 1.
constexpr std::uint32_t serial_next(std::uint32_t serial) { return serial + 1U; }

// RFC 1982 §3.2: true when `a` is greater than `b`. Pairs exactly 2^31 apart are
// undefined by the RFC; we call them not greater, so neither side wins a comparison.
constexpr bool serial_greater(std::uint32_t a, std::uint32_t b) {
  return a != b && ((a > b && a - b < 0x80000000U) || (a < b && b - a > 0x80000000U));
}

}  // namespace cutover::store
