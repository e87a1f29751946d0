// Master-file lexer: comments, quoted strings, escapes and parenthesised continuation.
// Escapes are kept verbatim in token text; the name and rdata parsers decode them. Every
// token is therefore one contiguous run of the source, found by scanning and copied once.
#include "zone/lexer.h"

#include <array>
#include <cstring>
#include <utility>

namespace cutover::zone {
namespace {

// What a byte means inside an unquoted word. The lexer looks at nearly every byte of a
// zone file, so this is a table rather than a chain of comparisons.
enum class WordByte : std::uint8_t { kOrdinary, kDelimiter, kBackslash };

constexpr std::array<WordByte, 256> kWordBytes = [] {
  std::array<WordByte, 256> table{};
  for (char c : std::string_view(" \t\r\n;()\"")) table[static_cast<unsigned char>(c)] = WordByte::kDelimiter;
  table['\\'] = WordByte::kBackslash;
  return table;
}();

WordByte word_byte(char c) { return kWordBytes[static_cast<unsigned char>(c)]; }

}  // namespace

bool is_word_delimiter(char c) { return word_byte(c) == WordByte::kDelimiter; }

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

void Lexer::advance_within_line(std::size_t end) {
  column_ += static_cast<std::uint32_t>(end - pos_);
  pos_ = end;
}

void Lexer::error(std::uint32_t line, std::uint32_t column, std::string message) {
  diagnostics_.push_back(Diagnostic{Severity::kError, SourceLocation{file_, line, column}, std::move(message)});
}

void Lexer::skip_comment() {
  const void* newline = std::memchr(text_.data() + pos_, '\n', text_.size() - pos_);
  advance_within_line(newline == nullptr ? text_.size()
                                         : static_cast<std::size_t>(static_cast<const char*>(newline) - text_.data()));
}

std::size_t Lexer::escaped_end(std::size_t pos) const {
  // A backslash makes the next byte ordinary, unless it ends the line or the text.
  return text_[pos] == '\\' && pos + 1 < text_.size() && text_[pos + 1] != '\n' ? pos + 2 : pos + 1;
}

void Lexer::read_quoted(std::vector<dns::TextToken>& tokens) {
  std::uint32_t column = column_;
  std::size_t start = pos_ + 1;  // after the opening quote
  std::size_t end = start;
  while (end < text_.size() && text_[end] != '"' && text_[end] != '\n') end = escaped_end(end);
  tokens.push_back(dns::TextToken{std::string(text_.substr(start, end - start)), true, line_, column});
  if (end >= text_.size() || text_[end] == '\n') {
    error(line_, column, "quoted string is not closed on its line");
    advance_within_line(end);
    return;
  }
  advance_within_line(end + 1);  // past the closing quote
}

void Lexer::read_word(std::vector<dns::TextToken>& tokens) {
  std::size_t end = pos_;
  while (end < text_.size()) {
    WordByte kind = word_byte(text_[end]);
    if (kind == WordByte::kOrdinary) {
      ++end;
    } else if (kind == WordByte::kBackslash) {
      end = escaped_end(end);
    } else {
      break;
    }
  }
  // A word never holds a newline (an escaped one ends it), so it stays on this line.
  tokens.push_back(dns::TextToken{std::string(text_.substr(pos_, end - pos_)), false, line_, column_});
  advance_within_line(end);
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
      advance_within_line(pos_ + 1);
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
      advance_within_line(pos_ + 1);
      continue;
    }
    if (c == ')') {
      if (depth == 0) {
        error(line_, column_, "')' without a matching '('");
      } else {
        --depth;
      }
      advance_within_line(pos_ + 1);
      continue;
    }
    if (c == '"') {
      read_quoted(out.tokens);
    } else {
      read_word(out.tokens);
    }
    out.end_line = line_;
    out.end_column = column_;
  }
  if (depth > 0) error(open_line, open_column, "'(' is never closed");
  return !out.tokens.empty();
}

}  // namespace cutover::zone
