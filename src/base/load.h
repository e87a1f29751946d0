// Unchecked loads of fixed-width integers from raw bytes, for code that has already checked
// the bounds once for a whole structure: the fast query parser, the fast index, the cookie
// code, a message header (TSIG), an RDATA of fixed or already validated length (LOC, SVCB
// parameters). Code that reads field by field should use base::ByteReader, which checks each read.
#pragma once

#include <cstdint>

namespace cutover::base {

// Network byte order (RFC 1035 §2.3.2).
inline std::uint16_t load_u16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }
inline std::uint32_t load_u32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}
// Little-endian, as SipHash reads its key and message words.
inline std::uint64_t load_le64(const std::uint8_t* p) {
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | p[i];
  return value;
}

}  // namespace cutover::base
