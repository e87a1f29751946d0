// URLs and the HTTP/1.1 response parser: body lengths (RFC 9112 §6.3), chunked coding
// (§7.1), persistence (§9.3), fed whole and one byte at a time, and malformed responses.
#include <gtest/gtest.h>

#include "client/http.h"

namespace cutover::client {
namespace {

TEST(Url, ParsesHostPortAndTarget) {
  struct Case {
    const char* text;
    const char* host;
    std::uint16_t port;
    const char* target;
    bool address;
    const char* authority;
  };
  const Case cases[] = {
      {"http://www.lab.test:8080/id", "www.lab.test", 8080, "/id", false, "www.lab.test:8080"},
      {"http://WWW.Lab.Test", "www.lab.test", 80, "/", false, "www.lab.test:80"},
      {"http://127.0.0.2:81?x=1#frag", "127.0.0.2", 81, "/?x=1", true, "127.0.0.2:81"},
      {"http://[::1]:8080/a/b", "::1", 8080, "/a/b", true, "[::1]:8080"},
  };
  for (const auto& c : cases) {
    auto url = parse_url(c.text);
    ASSERT_TRUE(url) << c.text << ": " << url.error().message;
    EXPECT_EQ(url->host, c.host) << c.text;
    EXPECT_EQ(url->port, c.port) << c.text;
    EXPECT_EQ(url->target, c.target) << c.text;
    EXPECT_EQ(url->host_is_address, c.address) << c.text;
    EXPECT_EQ(url->authority(), c.authority) << c.text;
  }
}

TEST(Url, RefusesWhatItCannotFetch) {
  auto https = parse_url("https://www.lab.test/");
  ASSERT_FALSE(https);
  EXPECT_EQ(https.error().code, base::ErrorCode::kUnsupported);
  for (const char* bad : {"ftp://x/", "www.lab.test", "http://", "http://h:0/", "http://h:70000/", "http://h:8x/",
                          "http://[::1/", "http://[nope]:80/", "http://user@h/"}) {
    EXPECT_FALSE(parse_url(bad)) << bad;
  }
}

TEST(Url, TheRequestNamesTheHostAndAsksToCloseWhenTold) {
  auto url = *parse_url("http://www.lab.test:8080/id");
  EXPECT_EQ(build_get(url, true),
            "GET /id HTTP/1.1\r\nHost: www.lab.test:8080\r\nUser-Agent: cutover-fetch\r\nAccept: */*\r\n\r\n");
  EXPECT_NE(build_get(*parse_url("http://[::1]/"), false).find("Host: [::1]\r\nUser-Agent: cutover-fetch\r\nAccept: */*\r\nConnection: close\r\n\r\n"),
            std::string::npos);
}

struct ParseCase {
  const char* name;
  std::string wire;
  bool close_after;  // the peer closes after sending `wire`
  ResponseParser::State expected;
  std::string body;
  bool keep_alive;
};

std::vector<ParseCase> parse_cases() {
  return {
      {"content-length", "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\norigin-A\n", false,
       ResponseParser::State::kComplete, "origin-A\n", true},
      {"chunked with extension and trailer",
       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\norig\r\n5\r\nin-B\n\r\n0\r\nX-T: 1\r\n\r\n", false,
       ResponseParser::State::kComplete, "origin-B\n", true},
      {"connection close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok", false,
       ResponseParser::State::kComplete, "ok", false},
      {"http/1.0 without keep-alive", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", false,
       ResponseParser::State::kComplete, "ok", false},
      {"http/1.0 with keep-alive", "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok", false,
       ResponseParser::State::kComplete, "ok", true},
      {"until close", "HTTP/1.1 200 OK\r\n\r\nall of it", true, ResponseParser::State::kComplete, "all of it", false},
      {"204 has no body", "HTTP/1.1 204 No Content\r\n\r\n", false, ResponseParser::State::kComplete, "", true},
      {"interim 100 skipped", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx", false,
       ResponseParser::State::kComplete, "x", true},
      {"short body then close", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", true, ResponseParser::State::kError, "", false},
      {"close before anything", "", true, ResponseParser::State::kError, "", false},
      {"not http", "SSH-2.0-OpenSSH\r\n\r\n", false, ResponseParser::State::kError, "", false},
      {"bad content-length", "HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n", false, ResponseParser::State::kError, "", false},
      {"two content-lengths", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", false,
       ResponseParser::State::kError, "", false},
      {"bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", false,
       ResponseParser::State::kError, "", false},
      {"space before colon", "HTTP/1.1 200 OK\r\nContent-Length : 1\r\n\r\nx", false, ResponseParser::State::kError, "", false},
  };
}

void check(const ParseCase& c, ResponseParser& parser, const std::string& how) {
  if (c.close_after) parser.end_of_stream();
  ASSERT_EQ(parser.state(), c.expected) << c.name << " (" << how << "): " << parser.error();
  if (c.expected != ResponseParser::State::kComplete) {
    EXPECT_FALSE(parser.error().empty()) << c.name;
    return;
  }
  EXPECT_EQ(parser.response().body, c.body) << c.name << " (" << how << ")";
  EXPECT_EQ(parser.response().keep_alive, c.keep_alive) << c.name << " (" << how << ")";
  EXPECT_EQ(parser.leftover(), 0u) << c.name;
}

TEST(ResponseParser, ReadsEveryBodyLengthWholeAndByteByByte) {
  for (const auto& c : parse_cases()) {
    ResponseParser whole;
    whole.feed(c.wire);
    check(c, whole, "whole");
    ResponseParser bytes;
    for (char byte : c.wire) {
      if (bytes.feed(std::string_view(&byte, 1)) != ResponseParser::State::kNeedMore) break;
    }
    check(c, bytes, "byte by byte");
  }
}

TEST(ResponseParser, BytesAfterTheResponseAreLeftOver) {
  ResponseParser parser;
  EXPECT_EQ(parser.feed("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxHTTP/1.1"), ResponseParser::State::kComplete);
  EXPECT_EQ(parser.leftover(), 8u) << "an unasked response: the connection cannot be trusted again";
  EXPECT_EQ(parser.response().status, 200);
  EXPECT_EQ(parser.response().header("content-length"), "1");
}

TEST(ResponseParser, RefusesAnOversizedHeader) {
  ResponseParser parser;
  std::string huge = "HTTP/1.1 200 OK\r\nX: " + std::string(ResponseParser::kMaxHeaderBytes, 'a');
  EXPECT_EQ(parser.feed(huge), ResponseParser::State::kError);
}

}  // namespace
}  // namespace cutover::client
