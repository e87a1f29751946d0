// Unit tests for TTL text: plain seconds, unit groups, case, and overflow.
#include "zone/ttl_text.h"

#include <gtest/gtest.h>

namespace cutover::zone {
namespace {

struct TtlCase {
  const char* text;
  std::uint32_t seconds;
};

TEST(ParseTtl, AcceptsSecondsAndUnits) {
  const TtlCase cases[] = {
      {"0", 0},        {"300", 300},         {"1h30m", 5400},       {"1H30M", 5400},
      {"1w2d", 777600}, {"1W2D", 777600},    {"90s", 90},           {"1d", 86400},
      {"1h30", 3630},  {"2147483647", 2147483647u}, {"4294967295", 4294967295u}, {"1w1d1h1m1s", 694861},
  };
  for (const auto& c : cases) {
    auto ttl = parse_ttl(c.text);
    ASSERT_TRUE(ttl.ok()) << c.text << ": " << ttl.error().message;
    EXPECT_EQ(*ttl, c.seconds) << c.text;
  }
}

TEST(ParseTtl, RejectsNonTtls) {
  for (const char* text : {"", "h", "1x", "1h30x", "1hh", "-1", "4294967296", "7102w", "1 h"}) {
    EXPECT_FALSE(parse_ttl(text).ok()) << text;
  }
}

}  // namespace
}  // namespace cutover::zone
