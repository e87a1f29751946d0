// Type bitmap codec for NSEC and NSEC3.
#include "dns/type_bitmap.h"

#include <array>
#include <bitset>

#include <fmt/format.h>

#include "dns/types.h"

namespace cutover::dns {

bool type_bitmap_valid(std::span<const std::uint8_t> bitmap) {
  std::size_t pos = 0;
  int previous_window = -1;
  while (pos < bitmap.size()) {
    if (pos + 2 > bitmap.size()) return false;
    int window = bitmap[pos];
    std::size_t length = bitmap[pos + 1];
    if (window <= previous_window || length < 1 || length > 32 || pos + 2 + length > bitmap.size()) return false;
    // Trailing zero octets must be omitted, so each window has a unique encoding.
    if (bitmap[pos + 1 + length] == 0) return false;
    previous_window = window;
    pos += 2 + length;
  }
  return true;
}

std::string type_bitmap_to_text(std::span<const std::uint8_t> bitmap) {
  std::string text;
  std::size_t pos = 0;
  while (pos + 2 <= bitmap.size()) {
    unsigned window = bitmap[pos];
    std::size_t length = bitmap[pos + 1];
    for (std::size_t octet = 0; octet < length && pos + 2 + octet < bitmap.size(); ++octet) {
      std::uint8_t bits = bitmap[pos + 2 + octet];
      for (unsigned bit = 0; bit < 8; ++bit) {
        if ((bits & (0x80 >> bit)) == 0) continue;
        auto type = static_cast<RRType>(window * 256 + octet * 8 + bit);
        if (!text.empty()) text.push_back(' ');
        text.append(type_to_text(type));
      }
    }
    pos += 2 + length;
  }
  return text;
}

base::Status type_bitmap_from_text(std::span<const TextToken> tokens, std::size_t& index, Rdata& out) {
  std::bitset<65536> present;
  for (; index < tokens.size(); ++index) {
    auto type = type_from_text(tokens[index].text);
    if (!type) {
      return base::make_error(base::ErrorCode::kMalformed,
                              fmt::format("unknown type '{}' in type bitmap", tokens[index].text), index);
    }
    present.set(static_cast<std::uint16_t>(*type));
  }
  for (unsigned window = 0; window < 256; ++window) {
    std::array<std::uint8_t, 32> octets{};
    std::size_t used = 0;
    for (unsigned low = 0; low < 256; ++low) {
      if (!present.test(window * 256 + low)) continue;
      octets[low / 8] |= static_cast<std::uint8_t>(0x80 >> (low % 8));
      used = low / 8 + 1;
    }
    if (used == 0) continue;
    out.push_back(static_cast<std::uint8_t>(window));
    out.push_back(static_cast<std::uint8_t>(used));
    out.insert(out.end(), octets.begin(), octets.begin() + static_cast<std::ptrdiff_t>(used));
  }
  return {};
}

}  // namespace cutover::dns
