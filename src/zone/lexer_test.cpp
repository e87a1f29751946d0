// Unit tests for the master-file lexer: tokens, positions, continuation and comments.
#include "zone/lexer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace cutover::zone {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

struct Lexed {
  std::vector<LogicalLine> lines;
  std::vector<Diagnostic> diagnostics;
};

Lexed lex(std::string_view text) {
  Lexed out;
  Lexer lexer(text, "t", out.diagnostics);
  LogicalLine line;
  while (lexer.next(line)) out.lines.push_back(line);
  return out;
}

std::vector<std::string> texts(const LogicalLine& line) {
  std::vector<std::string> out;
  for (const auto& token : line.tokens) out.push_back(token.quoted ? "\"" + token.text + "\"" : token.text);
  return out;
}

TEST(Lexer, SplitsWordsAndKeepsPositions) {
  auto lexed = lex("www  300\tIN A 192.0.2.1\n");
  ASSERT_EQ(lexed.lines.size(), 1u);
  EXPECT_THAT(texts(lexed.lines[0]), ElementsAre("www", "300", "IN", "A", "192.0.2.1"));
  const auto& tokens = lexed.lines[0].tokens;
  EXPECT_EQ(tokens[1].column, 6u);
  EXPECT_EQ(tokens[2].column, 10u);  // a tab counts as one column
  EXPECT_EQ(tokens[4].line, 1u);
  EXPECT_FALSE(lexed.lines[0].blank_owner);
}

TEST(Lexer, LeadingBlankMeansPreviousOwner) {
  auto lexed = lex("a A 192.0.2.1\n  TXT x\n\tTXT y\n");
  ASSERT_EQ(lexed.lines.size(), 3u);
  EXPECT_FALSE(lexed.lines[0].blank_owner);
  EXPECT_TRUE(lexed.lines[1].blank_owner);
  EXPECT_TRUE(lexed.lines[2].blank_owner);
}

TEST(Lexer, ParenthesesJoinLinesAndCommentsVanish) {
  auto lexed = lex("@ SOA ns host ( 1 ; serial\n  ; only a comment\n 2 3 4 5 ) ; trailing\nnext A 1.2.3.4\n");
  ASSERT_EQ(lexed.lines.size(), 2u);
  EXPECT_THAT(texts(lexed.lines[0]), ElementsAre("@", "SOA", "ns", "host", "1", "2", "3", "4", "5"));
  EXPECT_EQ(lexed.lines[0].tokens[5].line, 3u);
  EXPECT_EQ(lexed.lines[0].tokens[5].column, 2u);
  EXPECT_EQ(lexed.lines[1].tokens[0].line, 4u);
  EXPECT_THAT(lexed.diagnostics, IsEmpty());
}

TEST(Lexer, QuotedStringsKeepBlanksSemicolonsAndEscapes) {
  auto lexed = lex(R"(t TXT "a b; c" "say \"hi\"" "x\065")");
  ASSERT_EQ(lexed.lines.size(), 1u);
  EXPECT_THAT(texts(lexed.lines[0]), ElementsAre("t", "TXT", "\"a b; c\"", R"("say \"hi\"")", R"("x\065")"));
  EXPECT_EQ(lexed.lines[0].tokens[2].column, 7u);
}

TEST(Lexer, BackslashProtectsDelimitersInWords) {
  auto lexed = lex(R"(a\ b\;c\(d TXT x)");
  ASSERT_EQ(lexed.lines.size(), 1u);
  EXPECT_THAT(texts(lexed.lines[0]), ElementsAre(R"(a\ b\;c\(d)", "TXT", "x"));
}

TEST(Lexer, CrLfAndBlankLines) {
  auto lexed = lex("a A 1.2.3.4\r\n\r\n   \r\n\tTXT \"x\"\r\n");
  ASSERT_EQ(lexed.lines.size(), 2u);
  EXPECT_THAT(texts(lexed.lines[0]), ElementsAre("a", "A", "1.2.3.4"));
  EXPECT_THAT(texts(lexed.lines[1]), ElementsAre("TXT", "\"x\""));
  EXPECT_EQ(lexed.lines[1].tokens[0].line, 4u);
}

TEST(Lexer, EndOfLinePositionFollowsLastToken) {
  auto lexed = lex("www 300 IN   \n");
  ASSERT_EQ(lexed.lines.size(), 1u);
  EXPECT_EQ(lexed.lines[0].end_line, 1u);
  EXPECT_EQ(lexed.lines[0].end_column, 11u);
}

TEST(Lexer, UnclosedQuoteIsReportedAtItsStart) {
  auto lexed = lex("a TXT \"open\nb A 1.2.3.4\n");
  ASSERT_EQ(lexed.diagnostics.size(), 1u);
  EXPECT_EQ(lexed.diagnostics[0].location.line, 1u);
  EXPECT_EQ(lexed.diagnostics[0].location.column, 7u);
  ASSERT_EQ(lexed.lines.size(), 2u);  // the next line still lexes
}

TEST(Lexer, UnbalancedParentheses) {
  auto never_closed = lex("a TXT ( x\n y\n");
  ASSERT_EQ(never_closed.diagnostics.size(), 1u);
  EXPECT_EQ(never_closed.diagnostics[0].message, "'(' is never closed");
  EXPECT_EQ(never_closed.diagnostics[0].location.column, 7u);

  auto stray = lex("a TXT x )\n");
  ASSERT_EQ(stray.diagnostics.size(), 1u);
  EXPECT_EQ(stray.diagnostics[0].location.column, 9u);
}

TEST(Lexer, LineWithOnlyParenthesesIsEmpty) {
  auto lexed = lex("( )\na A 1.2.3.4\n");
  ASSERT_EQ(lexed.lines.size(), 1u);
  EXPECT_FALSE(lexed.lines[0].blank_owner);
}

TEST(Lexer, TokensAtTheEndOfTextWithoutNewline) {
  // Words and quoted strings are found by scanning ahead, so the last byte of the text
  // must end them as a newline would.
  auto word = lex("a A 1.2.3.4");
  ASSERT_EQ(word.lines.size(), 1u);
  EXPECT_THAT(texts(word.lines[0]), ElementsAre("a", "A", "1.2.3.4"));
  EXPECT_EQ(word.lines[0].end_column, 12u);

  auto quoted = lex("t TXT \"x y\"");
  ASSERT_EQ(quoted.lines.size(), 1u);
  EXPECT_THAT(texts(quoted.lines[0]), ElementsAre("t", "TXT", "\"x y\""));
  EXPECT_THAT(quoted.diagnostics, IsEmpty());

  auto comment = lex("a A 1.2.3.4 ; no newline after this");
  ASSERT_EQ(comment.lines.size(), 1u);
  EXPECT_EQ(comment.lines[0].end_column, 12u);

  auto backslash = lex("t TXT x\\");  // a lone backslash as the very last byte
  ASSERT_EQ(backslash.lines.size(), 1u);
  EXPECT_THAT(texts(backslash.lines[0]), ElementsAre("t", "TXT", "x\\"));

  auto unclosed = lex("t TXT \"open \\");
  ASSERT_EQ(unclosed.diagnostics.size(), 1u);
  EXPECT_EQ(unclosed.diagnostics[0].location.column, 7u);
  ASSERT_EQ(unclosed.lines.size(), 1u);
  EXPECT_EQ(unclosed.lines[0].tokens[2].text, "open \\");
}

TEST(Lexer, BackslashBeforeNewlineEndsTheWordAndKeepsLines) {
  auto lexed = lex("a TXT x\\\nb A 1.2.3.4\n");
  ASSERT_EQ(lexed.lines.size(), 2u);
  EXPECT_THAT(texts(lexed.lines[0]), ElementsAre("a", "TXT", "x\\"));
  EXPECT_EQ(lexed.lines[1].tokens[0].line, 2u);
  EXPECT_EQ(lexed.lines[1].tokens[2].column, 5u);
}

TEST(Lexer, ColumnsCountEscapedBytesAndCommentsOnEarlierLines) {
  auto lexed = lex("a\\ b TXT \"q\\\"r\" s ; c\n  TXT z\n");
  ASSERT_EQ(lexed.lines.size(), 2u);
  EXPECT_THAT(texts(lexed.lines[0]), ElementsAre("a\\ b", "TXT", "\"q\\\"r\"", "s"));
  EXPECT_EQ(lexed.lines[0].tokens[1].column, 6u);
  EXPECT_EQ(lexed.lines[0].tokens[3].column, 17u);
  EXPECT_EQ(lexed.lines[1].tokens[1].column, 7u);
  EXPECT_TRUE(lexed.lines[1].blank_owner);
}

TEST(Lexer, WordDelimiters) {
  for (char c : std::string_view(" \t\r\n;()\"")) EXPECT_TRUE(is_word_delimiter(c)) << int(c);
  for (char c : std::string_view("a0.-_*\\@$\x80\xff")) EXPECT_FALSE(is_word_delimiter(c)) << int(c);
}

}  // namespace
}  // namespace cutover::zone
