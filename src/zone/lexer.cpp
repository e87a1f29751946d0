// Master-file lexer: comments, quoted strings, escapes and parenthesised continuation.
// Escapes are kept verbatim in token text; the name and rdata parsers decode them.
#include "zone/lexer.h"

#include <utility>

namespace cutover::zone {

bool is_word_delimiter(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' || c == '(' || c == ')' || c == '"';
}

Lexer::Lexer(std::string_view text, std::string file, std::vector<Diagnostic>& diagnostics)
    : text_(text), file_(std::move(file)), diagnostics_(diagnostics) {}

void Lexer::advance() {
  if (text_[pos_] == '\n') {
    ++line_;
    column_ = 1;
  } else {
    ++column_;
  }
  ++pos_;
}

void Lexer::error(std::uint32_t line, std::uint32_t column, std::string message) {
  diagnostics_.push_back(Diagnostic{Severity::kError, SourceLocation{file_, line, column}, std::move(message)});
}

void Lexer::skip_comment() {
  while (!at_end() && peek() != '\n') advance();
}

dns::TextToken Lexer::read_quoted() {
  dns::TextToken token{"", true, line_, column_};
  advance();  // the opening quote
  while (true) {
    if (at_end() || peek() == '\n') {
      error(token.line, token.column, "quoted string is not closed on its line");
      return token;
    }
    char c = peek();
    if (c == '"') {
      advance();
      return token;
    }
    if (c == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] != '\n') {
      token.text.push_back(c);
      advance();
      c = peek();
    }
    token.text.push_back(c);
    advance();
  }
}

dns::TextToken Lexer::read_word() {
  dns::TextToken token{"", false, line_, column_};
  while (!at_end() && !is_word_delimiter(peek())) {
    char c = peek();
    // A backslash makes the next byte ordinary, even a blank, ';' or a parenthesis.
    if (c == '\\' && pos_ + 1 < text_.size() && text_[pos_ + 1] != '\n') {
      token.text.push_back(c);
      advance();
      c = peek();
    }
    token.text.push_back(c);
    advance();
  }
  return token;
}

bool Lexer::next(LogicalLine& out) {
  // Cleared rather than replaced: the token vector keeps its capacity from line to line.
  out.tokens.clear();
  out.blank_owner = false;
  out.end_line = 0;
  out.end_column = 0;
  int depth = 0;
  std::uint32_t open_line = 0;
  std::uint32_t open_column = 0;
  bool started = false;
  while (!at_end()) {
    char c = peek();
    if (c == '\n') {
      advance();
      if (depth > 0) continue;
      if (!out.tokens.empty()) return true;
      started = false;  // a line holding only "( )" is as empty as a blank one
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      advance();
      continue;
    }
    if (c == ';') {
      skip_comment();
      continue;
    }
    if (!started) {
      started = true;
      char first = text_[pos_ - (column_ - 1)];
      out.blank_owner = first == ' ' || first == '\t';
    }
    if (c == '(') {
      if (depth == 0) {
        open_line = line_;
        open_column = column_;
      }
      ++depth;
      advance();
      continue;
    }
    if (c == ')') {
      if (depth == 0) {
        error(line_, column_, "')' without a matching '('");
      } else {
        --depth;
      }
      advance();
      continue;
    }
    out.tokens.push_back(c == '"' ? read_quoted() : read_word());
    out.end_line = line_;
    out.end_column = column_;
  }
  if (depth > 0) error(open_line, open_column, "'(' is never closed");
  return !out.tokens.empty();
}

}  // namespace cutover::zone
