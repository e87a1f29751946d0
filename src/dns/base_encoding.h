// Binary-to-text encodings used in presentation formats: base64 (RFC 4648 §4),
// base32hex without padding (RFC 4648 §7, NSEC3 hashes) and hexadecimal.
// Stateless free functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cutover::dns {

std::string base64_encode(std::span<const std::uint8_t> data);
// Appends the decoded bytes; false on a bad character, bad padding or a partial quantum.
bool base64_decode(std::string_view text, std::vector<std::uint8_t>& out);

// Uppercase, unpadded, as BIND prints NSEC3 hashes.
std::string base32hex_encode(std::span<const std::uint8_t> data);
// Case-insensitive; padding is not accepted (NSEC3 never uses it).
bool base32hex_decode(std::string_view text, std::vector<std::uint8_t>& out);

// Uppercase hex digits, two per byte.
std::string hex_encode(std::span<const std::uint8_t> data);
// Case-insensitive; false on an odd number of digits or a non-hex character.
bool hex_decode(std::string_view text, std::vector<std::uint8_t>& out);

}  // namespace cutover::dns
