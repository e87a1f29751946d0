// Longest-prefix match and the scope it reports: the scope must be the longest prefix length
// for which every address sharing it gets the same value, and no longer than needed.
#include "base/network_table.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <random>

namespace cutover::base {
namespace {

std::vector<std::uint8_t> address(const char* text) {
  std::vector<std::uint8_t> bytes(16);
  if (::inet_pton(AF_INET, text, bytes.data()) == 1) {
    bytes.resize(4);
  } else {
    EXPECT_EQ(::inet_pton(AF_INET6, text, bytes.data()), 1) << text;
  }
  return bytes;
}

NetworkTable table(std::initializer_list<std::pair<const char*, std::uint32_t>> entries) {
  NetworkTable out;
  for (const auto& [text, value] : entries) {
    auto prefix = parse_network_prefix(text);
    EXPECT_TRUE(prefix) << text;
    EXPECT_TRUE(out.add(*prefix, value).ok()) << text;
  }
  return out;
}

TEST(NetworkPrefix, ParsesBothFamiliesAndBareAddresses) {
  auto v4 = parse_network_prefix("192.0.2.0/24");
  ASSERT_TRUE(v4);
  EXPECT_FALSE(v4->v6);
  EXPECT_EQ(v4->bits, 24u);
  EXPECT_TRUE(v4->host_bits_clear());
  EXPECT_EQ(v4->to_text(), "192.0.2.0/24");
  auto bare = parse_network_prefix("2001:db8::1");
  ASSERT_TRUE(bare);
  EXPECT_TRUE(bare->v6);
  EXPECT_EQ(bare->bits, 128u);
  EXPECT_FALSE(parse_network_prefix("192.0.2.1/24")->host_bits_clear());
  EXPECT_EQ(parse_network_prefix("192.0.2.77/26")->masked().to_text(), "192.0.2.64/26");
  EXPECT_EQ(parse_network_prefix("2001:db8:ffff::1/33")->masked().to_text(), "2001:db8:8000::/33");
  EXPECT_EQ(parse_network_prefix("10.1.2.3/0")->masked().to_text(), "0.0.0.0/0");
  for (const char* bad : {"", "192.0.2.0/", "192.0.2.0/33", "2001:db8::/129", "example", "10.0.0.0/8x", "10.0.0/8"}) {
    EXPECT_FALSE(parse_network_prefix(bad)) << bad;
  }
}

TEST(NetworkTable, LongestPrefixWinsAndTheScopeCoversOnlyWhatAgrees) {
  NetworkTable t = table({{"10.0.0.0/8", 1}, {"10.1.0.0/16", 2}, {"192.0.2.0/24", 3}});
  // Inside 10.1/16, a leaf: the whole /16 answers alike.
  auto deep = t.lookup(address("10.1.2.3"));
  EXPECT_TRUE(deep.found);
  EXPECT_EQ(deep.value, 2u);
  EXPECT_EQ(deep.scope, 16);
  // In 10/8 but outside 10.1/16: 10.0/16 agrees (bit 15 is where 10.1 splits off).
  auto shallow = t.lookup(address("10.0.9.9"));
  EXPECT_EQ(shallow.value, 1u);
  EXPECT_EQ(shallow.scope, 16);
  auto wide = t.lookup(address("10.128.0.1"));
  EXPECT_EQ(wide.value, 1u);
  EXPECT_EQ(wide.scope, 9);  // 10.128/9 holds nothing more specific
  // Nowhere: not found, with the scope of the part of the space that is also nowhere.
  auto none = t.lookup(address("203.0.113.5"));
  EXPECT_FALSE(none.found);
  EXPECT_EQ(none.scope, 5);  // 203 (11001011) leaves 192.0.2/24's path (11000000) at the fifth bit
  EXPECT_FALSE(t.lookup(address("2001:db8::1")).found);
}

TEST(NetworkTable, ScopeIsExactAgainstABruteForceCheck) {
  NetworkTable t = table({{"10.0.0.0/8", 1}, {"10.1.0.0/16", 2}, {"10.1.128.0/17", 3}, {"172.16.0.0/12", 4},
                          {"0.0.0.0/1", 5}});
  std::mt19937 random(7);
  for (int round = 0; round < 2000; ++round) {
    std::uint32_t value = random();
    std::array<std::uint8_t, 4> bytes = {static_cast<std::uint8_t>(value >> 24), static_cast<std::uint8_t>(value >> 16),
                                         static_cast<std::uint8_t>(value >> 8), static_cast<std::uint8_t>(value)};
    if (round % 2 == 0) bytes[0] = 10;  // stay near the interesting prefixes half the time
    NetworkMatch match = t.lookup(bytes);
    // Any address sharing `scope` leading bits gets the same answer.
    for (int probe = 0; probe < 8; ++probe) {
      std::uint32_t other = (static_cast<std::uint32_t>(bytes[0]) << 24) | (static_cast<std::uint32_t>(bytes[1]) << 16) |
                            (static_cast<std::uint32_t>(bytes[2]) << 8) | bytes[3];
      std::uint32_t keep = match.scope == 0 ? 0 : ~std::uint32_t{0} << (32 - match.scope);
      other = (other & keep) | (static_cast<std::uint32_t>(random()) & ~keep);
      std::array<std::uint8_t, 4> near = {static_cast<std::uint8_t>(other >> 24), static_cast<std::uint8_t>(other >> 16),
                                          static_cast<std::uint8_t>(other >> 8), static_cast<std::uint8_t>(other)};
      NetworkMatch again = t.lookup(near);
      ASSERT_EQ(again.found, match.found);
      ASSERT_EQ(again.value, match.value);
    }
  }
}

// seal() precomputes the first 16 bits of the IPv4 walk: a sealed table answers every address
// and source length exactly as the same table unsealed, scope included.
TEST(NetworkTable, ASealedTableAnswersAsTheUnsealedOne) {
  std::mt19937 random(11);
  for (bool with_root : {false, true}) {
    NetworkTable plain;
    NetworkTable sealed;
    if (with_root) {
      ASSERT_TRUE(plain.add(*parse_network_prefix("0.0.0.0/0"), 99).ok());
      ASSERT_TRUE(sealed.add(*parse_network_prefix("0.0.0.0/0"), 99).ok());
    }
    for (int i = 0; i < 3000; ++i) {
      NetworkPrefix prefix;
      std::uint32_t value = random() & 0x0FFFFFFF;  // within 0.0.0.0/4 so that prefixes nest
      prefix.bytes = {static_cast<std::uint8_t>(value >> 24), static_cast<std::uint8_t>(value >> 16),
                      static_cast<std::uint8_t>(value >> 8), static_cast<std::uint8_t>(value)};
      prefix.bits = 1 + random() % 32;
      prefix = prefix.masked();
      bool added = plain.add(prefix, static_cast<std::uint32_t>(i % 5)).ok();
      EXPECT_EQ(sealed.add(prefix, static_cast<std::uint32_t>(i % 5)).ok(), added);
    }
    sealed.seal();
    for (int round = 0; round < 20000; ++round) {
      std::uint32_t value = random();
      if (round % 2 == 0) value &= 0x0FFFFFFF;
      std::array<std::uint8_t, 4> bytes = {static_cast<std::uint8_t>(value >> 24), static_cast<std::uint8_t>(value >> 16),
                                           static_cast<std::uint8_t>(value >> 8), static_cast<std::uint8_t>(value)};
      unsigned bits = random() % 40;
      NetworkMatch a = plain.lookup(bytes, bits);
      NetworkMatch b = sealed.lookup(bytes, bits);
      ASSERT_EQ(a.found, b.found) << round;
      ASSERT_EQ(a.value, b.value) << round;
      ASSERT_EQ(a.scope, b.scope) << round << " bits " << bits;
    }
    // Adding after seal() drops the precomputed walk, so the new prefix is seen.
    ASSERT_TRUE(sealed.add(*parse_network_prefix("198.51.100.0/24"), 7).ok());
    EXPECT_EQ(sealed.lookup(address("198.51.100.9")).value, 7u);
  }
}

// The second stage (bits 16 to 24, one block per /16 holding longer prefixes): a dense table
// in 10.0.0.0/14 (four /16s) answers every address and source length as unsealed, with every
// /16 given a block, with only the first one (the cap), and with none.
TEST(NetworkTable, TheSecondStageAnswersAsTheUnsealedOne) {
  std::mt19937 random(23);
  NetworkTable plain;
  std::vector<std::pair<NetworkPrefix, std::uint32_t>> prefixes;
  ASSERT_TRUE(plain.add(*parse_network_prefix("10.0.0.0/8"), 50).ok());
  prefixes.emplace_back(*parse_network_prefix("10.0.0.0/8"), 50);
  for (int i = 0; i < 2000; ++i) {
    NetworkPrefix prefix;
    std::uint32_t value = 0x0A000000u | (random() & 0x0003FFFFu);
    prefix.bytes = {static_cast<std::uint8_t>(value >> 24), static_cast<std::uint8_t>(value >> 16),
                    static_cast<std::uint8_t>(value >> 8), static_cast<std::uint8_t>(value)};
    prefix.bits = 14 + random() % 19;  // 14 to 32: inside and across the second stage
    prefix = prefix.masked();
    if (plain.add(prefix, static_cast<std::uint32_t>(i % 7)).ok()) prefixes.emplace_back(prefix, i % 7);
  }
  for (std::size_t cap : {NetworkTable::kDefaultSealBlocks, std::size_t{1}, std::size_t{0}}) {
    NetworkTable sealed;
    for (const auto& [prefix, value] : prefixes) ASSERT_TRUE(sealed.add(prefix, value).ok());
    sealed.seal(cap);
    EXPECT_EQ(sealed.sealed_blocks(), std::min<std::size_t>(cap, 4)) << cap;
    for (int round = 0; round < 40000; ++round) {
      std::uint32_t value = 0x0A000000u | (random() & 0x0003FFFFu);
      if (round % 8 == 0) value = random();  // now and then anywhere
      std::array<std::uint8_t, 4> bytes = {static_cast<std::uint8_t>(value >> 24), static_cast<std::uint8_t>(value >> 16),
                                           static_cast<std::uint8_t>(value >> 8), static_cast<std::uint8_t>(value)};
      unsigned bits = round % 4 == 0 ? 24 : random() % 40;
      NetworkMatch a = plain.lookup(bytes, bits);
      NetworkMatch b = sealed.lookup(bytes, bits);
      ASSERT_EQ(a.found, b.found) << round << " cap " << cap;
      ASSERT_EQ(a.value, b.value) << round << " cap " << cap;
      ASSERT_EQ(a.scope, b.scope) << round << " bits " << bits << " cap " << cap;
    }
  }
}

TEST(NetworkTable, ASourcePrefixShorterThanTheTableStopsTheWalk) {
  NetworkTable t = table({{"10.0.0.0/8", 1}, {"10.1.0.0/16", 2}});
  // A resolver that sends only 10.1.0.0/12 cannot be told apart below /12: the /8's answer, scope 12.
  auto match = t.lookup(address("10.0.0.0"), 12);
  EXPECT_EQ(match.value, 1u);
  EXPECT_EQ(match.scope, 12);
  auto root = t.lookup(address("10.0.0.0"), 0);
  EXPECT_FALSE(root.found);
  EXPECT_EQ(root.scope, 0);
}

TEST(NetworkTable, MappedAddressesAreIPv4AndV6HasItsOwnTrie) {
  NetworkTable t = table({{"192.0.2.0/24", 1}, {"2001:db8::/32", 2}});
  auto mapped = t.lookup(address("::ffff:192.0.2.7"));
  EXPECT_TRUE(mapped.found);
  EXPECT_EQ(mapped.value, 1u);
  EXPECT_EQ(mapped.scope, 24);
  auto v6 = t.lookup(address("2001:db8:1::1"));
  EXPECT_EQ(v6.value, 2u);
  EXPECT_EQ(v6.scope, 32);
  EXPECT_FALSE(t.lookup(std::vector<std::uint8_t>{1, 2, 3}).found);  // neither family
}

// contains_recent() remembers one answer per thread: it must never give one table's answer
// for another table, for another address, or for a table changed since.
TEST(NetworkTable, ContainsRecentAnswersAsContainsWhateverWasAskedBefore) {
  NetworkTable trusted = table({{"127.0.0.0/8", 0}, {"2001:db8::/32", 0}});
  trusted.seal();
  NetworkTable other = table({{"10.0.0.0/8", 0}});
  other.seal();
  NetworkTable unsealed = table({{"192.0.2.0/24", 0}});
  const char* asked[] = {"127.0.0.1", "127.0.0.1", "10.1.2.3", "2001:db8::1", "2001:db9::1", "127.0.0.1", "192.0.2.7"};
  for (int round = 0; round < 2; ++round) {
    for (const char* text : asked) {
      for (const NetworkTable* t : {&trusted, &other, &unsealed, &trusted}) {
        EXPECT_EQ(t->contains_recent(address(text)), t->contains(address(text))) << text;
      }
    }
  }
  // A prefix added after the answer was remembered counts at once.
  EXPECT_FALSE(other.contains_recent(address("192.0.2.7")));
  ASSERT_TRUE(other.add(*parse_network_prefix("192.0.2.0/24"), 0).ok());
  EXPECT_TRUE(other.contains_recent(address("192.0.2.7")));
  other.seal();
  EXPECT_TRUE(other.contains_recent(address("192.0.2.7")));
  EXPECT_FALSE(other.contains_recent(address("198.51.100.7")));
}

TEST(NetworkTable, AddRefusesAPrefixTwice) {
  NetworkTable t = table({{"10.0.0.0/8", 1}});
  auto again = t.add(*parse_network_prefix("10.0.0.0/8"), 2);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().message, "10.0.0.0/8 is listed twice");
  EXPECT_EQ(t.size(), 1u);
}

}  // namespace
}  // namespace cutover::base
