// Type bitmap codec for NSEC and NSEC3.
#include "dns/type_bitmap.h"

#include <algorithm>
#include <array>
#include <vector>

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

void append_type_bitmap(std::vector<std::uint16_t> types, Rdata& out) {
  std::sort(types.begin(), types.end());
  types.erase(std::unique(types.begin(), types.end()), types.end());
  for (std::size_t first = 0; first < types.size();) {
    unsigned window = types[first] >> 8;
    std::array<std::uint8_t, 32> octets{};
    std::size_t used = 0;
    std::size_t next = first;
    for (; next < types.size() && (types[next] >> 8) == window; ++next) {
      unsigned low = types[next] & 0xFF;
      octets[low / 8] |= static_cast<std::uint8_t>(0x80 >> (low % 8));
      used = low / 8 + 1;
    }
    out.push_back(static_cast<std::uint8_t>(window));
    out.push_back(static_cast<std::uint8_t>(used));
    out.insert(out.end(), octets.begin(), octets.begin() + static_cast<std::ptrdiff_t>(used));
    first = next;
  }
}

base::Status type_bitmap_from_text(std::span<const TextToken> tokens, std::size_t& index, Rdata& out) {
  // The types sorted and unique, then one window per high byte in use: a signed zone has an
  // NSEC or NSEC3 per name, so this must not cost a walk over all 65,536 types per record.
  std::vector<std::uint16_t> types;
  for (; index < tokens.size(); ++index) {
    auto type = type_from_text(tokens[index].text);
    if (!type) {
      return base::make_error(base::ErrorCode::kMalformed,
                              fmt::format("unknown type '{}' in type bitmap", tokens[index].text), index);
    }
    types.push_back(static_cast<std::uint16_t>(*type));
  }
  append_type_bitmap(types, out);
  return {};
}

}  // namespace cutover::dns
