// Lexer for RFC 1035 master files: splits text into logical lines of tokens, joining
// physical lines inside parentheses and dropping comments. One instance per source text;
// not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dns/rdata.h"
#include "zone/diagnostic.h"

namespace cutover::zone {

// One entry of a master file: a record or a directive, possibly spanning lines.
struct LogicalLine {
  std::vector<dns::TextToken> tokens;
  // The entry's first physical line began with a blank, so the owner is omitted
  // and the previous owner applies (RFC 1035 §5.1).
  bool blank_owner = false;
  // Where the entry's text ends: used to point at "found end of line".
  std::uint32_t end_line = 0;
  std::uint32_t end_column = 0;
};

class Lexer {
 public:
  // `text` must outlive the lexer. Problems (unbalanced quotes or parentheses) are
  // appended to `diagnostics` with `file` as their location's file.
  Lexer(std::string_view text, std::string file, std::vector<Diagnostic>& diagnostics);

  // Reads the next entry that has at least one token; false at the end of the text.
  bool next(LogicalLine& out);

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void advance();  // moves one byte, keeping line and column in step
  // Moves to `end`, which must be on the current line (no newline in between).
  void advance_within_line(std::size_t end);
  void skip_comment();
  // Where the byte at `pos` ends, taking a backslash and the byte it escapes as one.
  std::size_t escaped_end(std::size_t pos) const;
  // Append the token starting at the current position to `tokens`.
  void read_quoted(std::vector<dns::TextToken>& tokens);
  void read_word(std::vector<dns::TextToken>& tokens);
  void error(std::uint32_t line, std::uint32_t column, std::string message);

  std::string_view text_;
  std::string file_;
  std::vector<Diagnostic>& diagnostics_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 1;
  std::uint32_t column_ = 1;
};

// True for the bytes that end an unquoted word in master-file text.
bool is_word_delimiter(char c);

}  // namespace cutover::zone
