// The NameIndex table: linear probing over a power-of-two array of 32-bit (hash tag, value) words.
#include "zone/name_index.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstring>

namespace cutover::zone {

namespace {

constexpr std::uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;
constexpr std::uint64_t kOnes = 0x0101010101010101ULL;

std::uint64_t mix(std::uint64_t h, std::uint64_t word) {
  h = (h ^ word) * kMultiplier;
  return h ^ (h >> 29);
}

// Eight bytes lowercased: per byte, 0x80 where the byte is in 'A'..'Z' (high bit clear,
// >= 'A', not > 'Z'), which shifted down to 0x20 is the case bit.
std::uint64_t lower_word(std::uint64_t x) {
  std::uint64_t low7 = x & (0x7F * kOnes);
  std::uint64_t at_least_a = low7 + (0x80 - 'A') * kOnes;
  std::uint64_t above_z = low7 + (0x80 - 'Z' - 1) * kOnes;
  std::uint64_t upper = at_least_a & ~above_z & ~x & (0x80 * kOnes);
  return x | upper >> 2;
}

}  // namespace

std::uint64_t hash_lower_wire(std::span<const std::uint8_t> lower_wire) {
  const std::uint8_t* p = lower_wire.data();
  std::size_t size = lower_wire.size();
  std::uint64_t h = size * kMultiplier;
  for (; size >= 8; size -= 8, p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    h = mix(h, word);
  }
  if (size > 0) {
    std::uint64_t word = 0;
    std::memcpy(&word, p, size);
    h = mix(h, word);
  }
  h *= kMultiplier;
  return h ^ (h >> 32);
}

std::uint64_t copy_lower_and_hash(std::uint8_t* to, const std::uint8_t* from, std::size_t size, std::size_t available) {
  std::uint64_t h = size * kMultiplier;
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t x;
    std::memcpy(&x, from + i, 8);
    x = lower_word(x);
    std::memcpy(to + i, &x, 8);
    h = mix(h, x);
  }
  if (i < size) {
    // The last bytes, zero-padded as hash_lower_wire pads them (zero stays zero lowercased):
    // a whole word masked to them (little-endian: the first bytes are the low ones). Where
    // the source ends before that word does (a query without EDNS: its name is followed by
    // four bytes only), the word that ends where the source ends, shifted down to them. A
    // memcpy of `rest` bytes instead is a libc call, about 20 instructions per query.
    std::size_t rest = size - i;
    std::uint64_t x = 0;
    if constexpr (std::endian::native == std::endian::little) {
      if (i + 8 <= available) {
        std::memcpy(&x, from + i, 8);
      } else if (available >= 8) {
        std::memcpy(&x, from + available - 8, 8);
        x >>= 8 * (i + 8 - available);  // i + 8 - available is 1..7: size <= available
      } else {
        for (std::size_t k = 0; k < rest; ++k) x |= std::uint64_t{from[i + k]} << (8 * k);
      }
      x &= ~std::uint64_t{0} >> (64 - 8 * rest);
    } else {
      std::memcpy(&x, from + i, rest);
    }
    x = lower_word(x);
    std::memcpy(to + i, &x, 8);
    h = mix(h, x);
  }
  h *= kMultiplier;
  return h ^ (h >> 32);
}

NameIndex::NameIndex(std::size_t expected, std::size_t value_limit)
    : slots_(std::bit_ceil(std::max<std::size_t>(expected * 2, 8)), kEmpty) {
  // Values run up to value_limit - 1, which must differ from the mask: the mask is all ones
  // in the value's bits, and with an all-ones tag it would be kEmpty.
  assert(value_limit <= kEmpty && slots_.size() <= (std::size_t{1} << 32));
  int bits = std::bit_width(std::max<std::size_t>(value_limit, 1));
  value_mask_ = bits >= 32 ? kEmpty : (std::uint32_t{1} << bits) - 1;
}

void NameIndex::insert(std::uint64_t hash, std::uint32_t value) {
  assert(value < value_mask_);
  std::size_t mask = slots_.size() - 1;
  std::size_t i = hash & mask;
  while (slots_[i] != kEmpty) i = (i + 1) & mask;
  slots_[i] = (static_cast<std::uint32_t>(hash >> 32) & ~value_mask_) | value;
}

bool same_name(std::span<const std::uint8_t> wire, std::span<const std::uint8_t> lower_wire) {
  if (wire.size() != lower_wire.size()) return false;
  // Zone files are mostly lowercase already, so the plain compare settles most lookups.
  if (equal_bytes(wire.data(), lower_wire.data(), wire.size())) return true;
  // Length bytes are below 64, so lowering every byte leaves them intact.
  for (std::size_t i = 0; i < wire.size(); ++i) {
    if (dns::ascii_lower(wire[i]) != lower_wire[i]) return false;
  }
  return true;
}

}  // namespace cutover::zone
