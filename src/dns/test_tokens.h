// Test helper: splits presentation text into TextTokens the way the zone lexer does
// (whitespace-separated, "quoted" strings keep their escapes undecoded; a quote inside a
// token keeps spaces up to the closing quote). Thread-safe.
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
      // A quote inside a token (SvcParam `key="a b"`) protects spaces up to the closing quote.
      bool in_quotes = false;
      for (; i < text.size() && (in_quotes || text[i] != ' '); ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) token.text.push_back(text[i++]);
        else if (text[i] == '"') in_quotes = !in_quotes;
        token.text.push_back(text[i]);
      }
    }
    tokens.push_back(std::move(token));
  }
  return tokens;
}

}  // namespace cutover::dns::testing
