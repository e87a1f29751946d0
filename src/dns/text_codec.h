// Presentation-format primitives shared by the rdata codecs: character-string escapes
// (RFC 1035 §5.1), bounded decimal numbers, BIND-style periods (1h30m) and RRSIG times.
// Stateless free functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cutover::dns {

// Decodes \X and \DDD escapes into raw bytes appended to `out`; false on a dangling
// backslash or a \DDD above 255.
bool decode_escapes(std::string_view text, std::string& out);

// Appends bytes as a quoted character-string: `"` and `\` escaped with a backslash,
// bytes outside 0x20..0x7E as \DDD (what BIND prints).
void append_quoted(std::span<const std::uint8_t> bytes, std::string& out);

// ASCII case-insensitive equality (mnemonics: types, classes, algorithms ...).
bool iequals(std::string_view a, std::string_view b);

// Plain decimal digits only, no sign, at most `max`.
std::optional<std::uint32_t> parse_decimal(std::string_view text, std::uint32_t max);

// Dotted-quad IPv4 address with exactly what inet_pton(AF_INET) accepts: four decimal
// octets of at most 255, no leading zeros; writes the address in network order.
bool parse_ipv4(std::string_view text, std::span<std::uint8_t, 4> out);

// A decimal number of seconds, or BIND units such as 1w2d3h4m5s (any case).
std::optional<std::uint32_t> parse_period(std::string_view text);

// RRSIG time (RFC 4034 §3.2): YYYYMMDDHHmmSS in UTC, or a decimal number of seconds.
// Dates past 2106 wrap modulo 2^32 as serial arithmetic intends.
std::optional<std::uint32_t> parse_rrsig_time(std::string_view text);
std::string rrsig_time_to_text(std::uint32_t seconds);

}  // namespace cutover::dns
