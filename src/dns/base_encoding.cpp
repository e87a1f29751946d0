// base64, base32hex and hex codecs for rdata presentation formats.
#include "dns/base_encoding.h"

namespace cutover::dns {
namespace {

constexpr std::string_view kBase64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view kBase32HexAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
constexpr std::string_view kHexDigits = "0123456789ABCDEF";

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

int base32hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'V') return c - 'A' + 10;
  if (c >= 'a' && c <= 'v') return c - 'a' + 10;
  return -1;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

std::string base64_encode(std::span<const std::uint8_t> data) {
  std::string text;
  text.reserve((data.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    std::uint32_t group = (std::uint32_t{data[i]} << 16) | (std::uint32_t{data[i + 1]} << 8) | data[i + 2];
    for (int shift = 18; shift >= 0; shift -= 6) text.push_back(kBase64Alphabet[(group >> shift) & 0x3F]);
  }
  std::size_t rest = data.size() - i;
  if (rest > 0) {
    std::uint32_t group = std::uint32_t{data[i]} << 16;
    if (rest == 2) group |= std::uint32_t{data[i + 1]} << 8;
    text.push_back(kBase64Alphabet[(group >> 18) & 0x3F]);
    text.push_back(kBase64Alphabet[(group >> 12) & 0x3F]);
    text.push_back(rest == 2 ? kBase64Alphabet[(group >> 6) & 0x3F] : '=');
    text.push_back('=');
  }
  return text;
}

bool base64_decode(std::string_view text, std::vector<std::uint8_t>& out) {
  if (text.size() % 4 != 0) return false;
  for (std::size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    std::uint32_t group = 0;
    int padding = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      char c = text[i + k];
      if (c == '=') {
        // Padding only in the last quantum, only in its final one or two positions.
        if (!last || k < 2) return false;
        ++padding;
        group <<= 6;
        continue;
      }
      if (padding > 0) return false;
      int value = base64_value(c);
      if (value < 0) return false;
      group = (group << 6) | static_cast<std::uint32_t>(value);
    }
    out.push_back(static_cast<std::uint8_t>(group >> 16));
    if (padding < 2) out.push_back(static_cast<std::uint8_t>(group >> 8));
    if (padding < 1) out.push_back(static_cast<std::uint8_t>(group));
  }
  return true;
}

std::string base32hex_encode(std::span<const std::uint8_t> data) {
  std::string text;
  text.reserve((data.size() * 8 + 4) / 5);
  std::uint32_t buffer = 0;
  int bits = 0;
  for (std::uint8_t byte : data) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      text.push_back(kBase32HexAlphabet[(buffer >> bits) & 0x1F]);
    }
  }
  if (bits > 0) text.push_back(kBase32HexAlphabet[(buffer << (5 - bits)) & 0x1F]);
  return text;
}

bool base32hex_decode(std::string_view text, std::vector<std::uint8_t>& out) {
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    int value = base32hex_value(c);
    if (value < 0) return false;
    buffer = (buffer << 5) | static_cast<std::uint32_t>(value);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(buffer >> bits));
    }
  }
  // Leftover bits must be fewer than a byte's worth of digit and all zero (canonical form).
  return bits < 5 && (buffer & ((1u << bits) - 1)) == 0;
}

std::string hex_encode(std::span<const std::uint8_t> data) {
  std::string text;
  text.reserve(data.size() * 2);
  for (std::uint8_t byte : data) {
    text.push_back(kHexDigits[byte >> 4]);
    text.push_back(kHexDigits[byte & 0x0F]);
  }
  return text;
}

bool hex_decode(std::string_view text, std::vector<std::uint8_t>& out) {
  if (text.size() % 2 != 0) return false;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    int high = hex_value(text[i]);
    int low = hex_value(text[i + 1]);
    if (high < 0 || low < 0) return false;
    out.push_back(static_cast<std::uint8_t>((high << 4) | low));
  }
  return true;
}

}  // namespace cutover::dns
