// Tests of the presentation primitives: base64/base32hex/hex, character-string escapes,
// numbers, BIND periods and RRSIG times.
#include "dns/text_codec.h"

#include <arpa/inet.h>

#include <cstring>

#include <gtest/gtest.h>

#include "dns/base_encoding.h"

namespace cutover::dns {
namespace {

std::vector<std::uint8_t> bytes(std::string_view text) { return {text.begin(), text.end()}; }

TEST(Base64, Rfc4648Vectors) {
  const std::pair<std::string_view, std::string_view> vectors[] = {
      {"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},         {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
  };
  for (auto [plain, encoded] : vectors) {
    EXPECT_EQ(base64_encode(bytes(plain)), encoded);
    std::vector<std::uint8_t> decoded;
    ASSERT_TRUE(base64_decode(encoded, decoded)) << encoded;
    EXPECT_EQ(decoded, bytes(plain));
  }
  for (std::string_view bad : {"Zg", "Zg=", "Z===", "Zg==Zg==", "Zm9v!", "=Zm9"}) {
    std::vector<std::uint8_t> decoded;
    EXPECT_FALSE(base64_decode(bad, decoded)) << bad;
  }
}

TEST(Base32Hex, Rfc4648VectorsWithoutPadding) {
  const std::pair<std::string_view, std::string_view> vectors[] = {
      {"", ""}, {"f", "CO"}, {"fo", "CPNG"}, {"foo", "CPNMU"}, {"foob", "CPNMUOG"}, {"foobar", "CPNMUOJ1E8"},
  };
  for (auto [plain, encoded] : vectors) {
    EXPECT_EQ(base32hex_encode(bytes(plain)), encoded);
    std::vector<std::uint8_t> decoded;
    ASSERT_TRUE(base32hex_decode(encoded, decoded)) << encoded;
    EXPECT_EQ(decoded, bytes(plain));
  }
  std::vector<std::uint8_t> lower;
  EXPECT_TRUE(base32hex_decode("cpnmuoj1e8", lower));
  EXPECT_EQ(lower, bytes("foobar"));
  for (std::string_view bad : {"W", "CO======", "CP", "C"}) {
    std::vector<std::uint8_t> decoded;
    EXPECT_FALSE(base32hex_decode(bad, decoded)) << bad;
  }
}

TEST(Hex, EncodesUppercaseDecodesAnyCase) {
  EXPECT_EQ(hex_encode(std::vector<std::uint8_t>{0x0a, 0xff, 0x00}), "0AFF00");
  std::vector<std::uint8_t> decoded;
  ASSERT_TRUE(hex_decode("0aFf00", decoded));
  EXPECT_EQ(decoded, (std::vector<std::uint8_t>{0x0a, 0xff, 0x00}));
  EXPECT_FALSE(hex_decode("abc", decoded));
  EXPECT_FALSE(hex_decode("zz", decoded));
}

TEST(Escapes, DecodeAndQuote) {
  struct Case {
    std::string_view escaped;
    std::string_view raw;
  };
  const Case cases[] = {
      {"plain", "plain"}, {"a\\\"b", "a\"b"}, {"back\\\\slash", "back\\slash"},
      {"\\065\\066", "AB"}, {"\\000", std::string_view("\0", 1)}, {"sp\\ ace", "sp ace"},
  };
  for (const Case& c : cases) {
    std::string decoded;
    ASSERT_TRUE(decode_escapes(c.escaped, decoded)) << c.escaped;
    EXPECT_EQ(decoded, c.raw);
  }
  for (std::string_view bad : {"end\\", "\\25", "\\2x5", "\\256"}) {
    std::string decoded;
    EXPECT_FALSE(decode_escapes(bad, decoded)) << bad;
  }
  std::string quoted;
  append_quoted(bytes("a\"b\\c\x01\x7f d"), quoted);
  EXPECT_EQ(quoted, "\"a\\\"b\\\\c\\001\\127 d\"");
}

TEST(Numbers, Ipv4AcceptsExactlyWhatInetPtonDoes) {
  // The zone parser's own dotted-quad reader must agree with inet_pton(AF_INET).
  for (std::string_view text :
       {"0.0.0.0", "192.0.2.1", "255.255.255.255", "10.0.0.10", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4",
        "1.2.3.04", "1..2.3", ".1.2.3", "1.2.3.", "1.2.3.4 ", "", "1.2.3.a", "1.2.3.-4", "1000.1.1.1", "0x1.2.3.4",
        "1.2.3.255", "1.2.3.300", "00.0.0.0", "0.0.0.00", "1.2.3.4/24"}) {
    std::uint8_t expected[4] = {};
    std::string terminated(text);
    bool libc_ok = inet_pton(AF_INET, terminated.c_str(), expected) == 1;
    std::uint8_t parsed[4] = {};
    EXPECT_EQ(parse_ipv4(text, parsed), libc_ok) << text;
    if (libc_ok) {
      EXPECT_EQ(std::memcmp(parsed, expected, 4), 0) << text;
    }
  }
}

TEST(Numbers, DecimalAndPeriod) {
  EXPECT_EQ(parse_decimal("0", 255), 0u);
  EXPECT_EQ(parse_decimal("255", 255), 255u);
  EXPECT_EQ(parse_decimal("4294967295", UINT32_MAX), UINT32_MAX);
  for (std::string_view bad : {"", "256", "-1", "+1", "1a", "4294967296", "99999999999"}) {
    EXPECT_FALSE(parse_decimal(bad, bad == "256" ? 255 : UINT32_MAX).has_value()) << bad;
  }
  EXPECT_EQ(parse_period("3600"), 3600u);
  EXPECT_EQ(parse_period("1h30m"), 5400u);
  EXPECT_EQ(parse_period("1W2d3H4m5S"), 604800u + 2 * 86400 + 3 * 3600 + 4 * 60 + 5);
  EXPECT_EQ(parse_period("1h30"), 3630u);
  for (std::string_view bad : {"", "h", "1x", "10000000000s", "1hh"}) {
    EXPECT_FALSE(parse_period(bad).has_value()) << bad;
  }
}

TEST(RrsigTime, DatesAndIntegers) {
  EXPECT_EQ(parse_rrsig_time("19700101000000"), 0u);
  EXPECT_EQ(parse_rrsig_time("20240101000000"), 1704067200u);
  EXPECT_EQ(parse_rrsig_time("20240229235959"), 1709251199u);
  EXPECT_EQ(parse_rrsig_time("1704067200"), 1704067200u);
  EXPECT_EQ(parse_rrsig_time("21060207062815"), UINT32_MAX);
  EXPECT_EQ(parse_rrsig_time("21060207062816"), 0u);  // serial arithmetic wraps
  for (std::string_view bad : {"20230229000000", "20241301000000", "20240100000000", "20240101240000",
                               "2024010100000a", "19691231235959"}) {
    EXPECT_FALSE(parse_rrsig_time(bad).has_value()) << bad;
  }
  EXPECT_EQ(rrsig_time_to_text(0), "19700101000000");
  EXPECT_EQ(rrsig_time_to_text(1709251199), "20240229235959");
  EXPECT_EQ(rrsig_time_to_text(UINT32_MAX), "21060207062815");
}

}  // namespace
}  // namespace cutover::dns
