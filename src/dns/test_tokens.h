// Test helper: splits presentation text into TextTokens the way the zone lexer does
// (whitespace-separated, "quoted" strings keep their escapes undecoded). Thread-safe.
#pragma once

#include <string_view>
#include <vector>

#include "dns/rdata.h"

namespace cutover::dns::testing {

inline std::vector<TextToken> tokenize(std::string_view text) {
  std::vector<TextToken> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    TextToken token;
    token.column = static_cast<std::uint32_t>(i);
    if (text[i] == '"') {
      token.quoted = true;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) token.text.push_back(text[i++]);
        token.text.push_back(text[i]);
      }
      ++i;
    } else {
      for (; i < text.size() && text[i] != ' '; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) token.text.push_back(text[i++]);
        token.text.push_back(text[i]);
      }
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

}  // namespace cutover::dns::testing
