// Tests of Name: presentation parsing and printing, limits, comparison and label surgery.
#include "dns/name.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace cutover::dns {
namespace {

Name name(std::string_view text) {
  auto parsed = Name::from_text(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.error().message;
  return parsed.ok() ? *parsed : Name();
}

TEST(NameText, ParsesAndPrints) {
  struct Case {
    std::string_view input;
    std::string_view printed;
    std::size_t labels;
  };
  const Case cases[] = {
      {".", ".", 0},
      {"example.", "example.", 1},
      {"www.Example.COM.", "www.Example.COM.", 3},
      {"a\\.b.example.", "a\\.b.example.", 2},
      {"a\\046b.example.", "a\\.b.example.", 2},
      {"sp\\032ace.", "sp\\ ace.", 1},
      {"\\000\\255.", "\\000\\255.", 1},
      {"quote\\\"s\\;.", "quote\\\"s\\;.", 1},
      {"back\\\\slash.", "back\\\\slash.", 1},
      {"*.example.", "*.example.", 2},
  };
  for (const Case& c : cases) {
    Name parsed = name(c.input);
    EXPECT_EQ(parsed.to_text(), c.printed) << c.input;
    EXPECT_EQ(parsed.label_count(), c.labels) << c.input;
    EXPECT_EQ(name(parsed.to_text()), parsed) << c.input;
  }
}

TEST(NameText, RelativeNamesTakeTheOrigin) {
  Name origin = name("example.org.");
  auto www = Name::from_text("www", &origin);
  ASSERT_TRUE(www.ok());
  EXPECT_EQ(www->to_text(), "www.example.org.");
  EXPECT_FALSE(Name::from_text("www").ok());
}

TEST(NameText, RejectsMalformedNames) {
  const std::string label63(63, 'a');
  const std::string label64(64, 'a');
  // 4 x 63-octet labels make 4*64 + 1 = 257 octets; three and a 61-octet label make 255.
  const std::string name255 = label63 + "." + label63 + "." + label63 + "." + std::string(61, 'b') + ".";
  const std::string name256 = label63 + "." + label63 + "." + label63 + "." + std::string(62, 'b') + ".";
  EXPECT_TRUE(Name::from_text(label63 + ".").ok());
  EXPECT_TRUE(Name::from_text(name255).ok());
  EXPECT_EQ(Name::from_text(name255)->wire().size(), 255u);
  for (const std::string& bad :
       {std::string(""), label64 + ".", name256, std::string("a..b."), std::string(".a."),
        std::string("a\\"), std::string("a\\25"), std::string("a\\256."), std::string("..")}) {
    EXPECT_FALSE(Name::from_text(bad).ok()) << bad;
  }
}

// A text whose wire form outgrows 255 octets is still read to its end: an error in a label
// after that point is the one reported, and a long text without one gets the length error.
TEST(NameText, ReportsTheFirstErrorOfATextLongerThanAName) {
  std::string many_labels;
  for (int i = 0; i < 200; ++i) many_labels += "a.";  // 400 octets of wire form
  struct Case {
    std::string text;
    std::string_view message;
  };
  const Case cases[] = {
      {many_labels, "name longer than 255 octets"},
      {many_labels + "b.", "name longer than 255 octets"},
      {many_labels + ".", "empty label"},
      {many_labels + "b..", "empty label"},
      {many_labels + std::string(64, 'c') + ".", "label longer than 63 octets"},
      {many_labels + std::string(64, 'c'), "label longer than 63 octets"},
      {many_labels + "b\\", "dangling '\\'"},
      {many_labels + "b\\300.", "escape above 255"},
  };
  for (const Case& c : cases) {
    auto parsed = Name::from_text(c.text);
    ASSERT_FALSE(parsed.ok()) << c.text;
    EXPECT_NE(parsed.error().message.find(c.message), std::string::npos) << c.message << ": " << parsed.error().message;
  }
}

TEST(NameText, ARelativeNameFitsWithItsOriginOrNotAtAll) {
  Name origin = name("example.org.");  // 13 octets
  // 241 + 1 length octet = 242 octets, + 13 = 255: the longest name.
  std::string fits = std::string(63, 'a') + "." + std::string(63, 'b') + "." + std::string(63, 'c') + "." + std::string(49, 'd');
  auto longest = Name::from_text(fits, &origin);
  ASSERT_TRUE(longest.ok()) << longest.error().message;
  EXPECT_EQ(longest->wire().size(), 255u);
  EXPECT_EQ(longest->label_count(), 6u);
  EXPECT_EQ(longest->to_text(), fits + ".example.org.");
  auto over = Name::from_text(fits + "d", &origin);
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().message.find("longer than 255"), std::string::npos) << over.error().message;
  // Absolute, the same labels end in the root label alone.
  auto absolute = Name::from_text(fits + ".");
  ASSERT_TRUE(absolute.ok());
  EXPECT_EQ(absolute->wire().size(), 243u);
  EXPECT_EQ(absolute->wire().back(), 0);
}

TEST(NameWire, LabelOffsetsOfWireBytes) {
  std::array<std::uint8_t, 128> offsets{};
  auto name = Name::from_text("lb.Example.net.");
  ASSERT_TRUE(name.ok());
  ASSERT_EQ(wire_label_offsets(name->wire(), offsets), 3u);
  EXPECT_EQ(offsets[0], 0);
  EXPECT_EQ(offsets[1], 3);
  EXPECT_EQ(offsets[2], 11);
  EXPECT_EQ(wire_label_offsets(std::vector<std::uint8_t>{0}, offsets), 0u);             // the root
  EXPECT_EQ(wire_label_offsets(std::vector<std::uint8_t>{2, 'l', 'b'}, offsets), 0u);  // no root byte
}

TEST(NameCompare, IgnoresAsciiCase) {
  EXPECT_EQ(name("WWW.example.COM."), name("www.EXAMPLE.com."));
  EXPECT_EQ(name("WWW.example.COM.").hash(), name("www.EXAMPLE.com.").hash());
  EXPECT_FALSE(name("www.example.") == name("ww.example."));
  EXPECT_FALSE(name("a\\200.") == name("a\\232."));  // only ASCII letters fold
}

TEST(NameCompare, CanonicalOrderMatchesRfc4034Example) {
  // RFC 4034 §6.1, in order.
  const std::vector<std::string_view> ordered = {
      "example.",         "a.example.",     "yljkjljk.a.example.", "Z.a.example.",
      "zABC.a.EXAMPLE.",  "z.example.",     "\\001.z.example.",    "*.z.example.",
      "\\200.z.example.",
  };
  std::vector<Name> names;
  for (auto text : ordered) names.push_back(name(text));
  std::vector<Name> shuffled(names.rbegin(), names.rend());
  std::sort(shuffled.begin(), shuffled.end(), NameCanonicalLess{});
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(shuffled[i].to_text(), names[i].to_text()) << i;
  }
  for (std::size_t i = 0; i + 1 < names.size(); ++i) {
    EXPECT_TRUE(names[i].canonical_compare(names[i + 1]) < 0) << ordered[i];
    EXPECT_TRUE(names[i + 1].canonical_compare(names[i]) > 0) << ordered[i];
  }
  EXPECT_TRUE(name("A.example.").canonical_compare(name("a.EXAMPLE.")) == 0);
}

TEST(NameLabels, SubdomainParentSuffix) {
  Name www = name("www.example.com.");
  EXPECT_TRUE(www.is_subdomain_of(name("example.com.")));
  EXPECT_TRUE(www.is_subdomain_of(name("EXAMPLE.com.")));
  EXPECT_TRUE(www.is_subdomain_of(www));
  EXPECT_TRUE(www.is_subdomain_of(Name()));
  EXPECT_FALSE(www.is_subdomain_of(name("ample.com.")));
  EXPECT_FALSE(name("example.com.").is_subdomain_of(www));
  EXPECT_EQ(www.parent().to_text(), "example.com.");
  EXPECT_EQ(www.parent(3).to_text(), ".");
  EXPECT_EQ(www.parent(9).to_text(), ".");
  EXPECT_EQ(www.suffix(1).to_text(), "com.");
  EXPECT_EQ(www.label(0), "www");
  EXPECT_EQ(www.label(2), "com");
  EXPECT_EQ(www.label(3), "");
}

TEST(NameLabels, Wildcard) {
  EXPECT_TRUE(name("*.example.").is_wildcard());
  EXPECT_FALSE(name("a.*.example.").is_wildcard());
  EXPECT_FALSE(name("*a.example.").is_wildcard());
  auto prepended = name("example.").prepend("*");
  ASSERT_TRUE(prepended.ok());
  EXPECT_TRUE(prepended->is_wildcard());
}

TEST(NameLabels, ReplaceSuffix) {
  auto replaced = name("a.b.example.").replace_suffix(name("example."), name("other.org."));
  ASSERT_TRUE(replaced.ok());
  EXPECT_EQ(replaced->to_text(), "a.b.other.org.");
  EXPECT_FALSE(name("a.example.").replace_suffix(name("org."), name("x.")).ok());
  const std::string long_label(63, 'x');
  Name target = name(long_label + "." + long_label + "." + long_label + ".");
  EXPECT_FALSE(name(long_label + ".d.").replace_suffix(name("d."), target).ok());
}

TEST(NameLabels, PrependRespectsLimits) {
  EXPECT_FALSE(Name().prepend("").ok());
  EXPECT_FALSE(Name().prepend(std::string(64, 'a')).ok());
  EXPECT_TRUE(Name().prepend(std::string(63, 'a')).ok());
}

TEST(NameWire, UncompressedValidation) {
  std::vector<std::uint8_t> good = {3, 'w', 'w', 'w', 0};
  EXPECT_EQ(Name::from_uncompressed(good)->to_text(), "www.");
  for (const std::vector<std::uint8_t>& bad :
       {std::vector<std::uint8_t>{}, std::vector<std::uint8_t>{3, 'w', 'w'}, std::vector<std::uint8_t>{64},
        std::vector<std::uint8_t>{0, 0}, std::vector<std::uint8_t>{0xC0, 0}}) {
    EXPECT_FALSE(Name::from_uncompressed(bad).ok());
  }
}

TEST(NameWire, FollowsBackwardPointers) {
  std::vector<std::uint8_t> wire = {3, 'c', 'o', 'm', 0, 3, 'w', 'w', 'w', 0xC0, 0, 0xFF};
  base::ByteReader reader(wire, 5);
  auto parsed = Name::from_wire(reader);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->to_text(), "www.com.");
  EXPECT_EQ(reader.pos(), 11u);
}

TEST(NameWire, RejectsBadCompression) {
  struct Case {
    std::string_view what;
    std::vector<std::uint8_t> wire;
    std::size_t start;
  };
  std::vector<std::uint8_t> too_long;
  for (int i = 0; i < 5; ++i) {
    too_long.push_back(63);
    too_long.insert(too_long.end(), 63, 'a');
  }
  too_long.push_back(0);
  const Case cases[] = {
      {"self loop", {0xC0, 0}, 0},
      {"forward pointer", {0xC0, 2, 0}, 0},
      {"loop through label", {1, 'a', 0xC0, 0}, 0},
      {"two-pointer loop", {0xC0, 2, 0xC0, 0}, 2},
      {"label longer than 63 (0x40 type)", {0x40, 'a', 0}, 0},
      {"label past end", {5, 'a', 'b'}, 0},
      {"no terminator", {1, 'a'}, 0},
      {"truncated pointer", {0xC0}, 0},
      {"name longer than 255", too_long, 0},
  };
  for (const Case& c : cases) {
    base::ByteReader reader(c.wire, c.start);
    EXPECT_FALSE(Name::from_wire(reader).ok()) << c.what;
  }
}

}  // namespace
}  // namespace cutover::dns
