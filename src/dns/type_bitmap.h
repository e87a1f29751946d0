// NSEC/NSEC3 type bitmaps (RFC 4034 §4.1.2): window blocks in ascending order, each 1..32
// octets ending in a non-zero octet. Stateless free functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/result.h"
#include "dns/rdata.h"

namespace cutover::dns {

bool type_bitmap_valid(std::span<const std::uint8_t> bitmap);
// Space-separated mnemonics, ascending; empty for an empty bitmap.
std::string type_bitmap_to_text(std::span<const std::uint8_t> bitmap);
// Consumes every remaining token as a type mnemonic (duplicates allowed, any order).
// The bitmap of `types` (any order, duplicates allowed) appended to `out`.
void append_type_bitmap(std::vector<std::uint16_t> types, Rdata& out);
base::Status type_bitmap_from_text(std::span<const TextToken> tokens, std::size_t& index, Rdata& out);

}  // namespace cutover::dns
