// The word-at-a-time name helpers: the one-pass copy of a query's name that the answer fast
// path reads (copy_lower_and_hash: lowercased, hashed) against lowering byte by byte and
// hash_lower_wire; equal_bytes, which compares names a word at a time; and the NameIndex
// table's 4-byte slots (a value in the low bits, a hash tag above it).
#include "zone/name_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace cutover::zone {
namespace {

std::uint8_t lowered(std::uint8_t byte) { return byte >= 'A' && byte <= 'Z' ? static_cast<std::uint8_t>(byte + 32) : byte; }

TEST(CopyLowerAndHash, LowersOnlyAsciiCapitals) {
  std::vector<std::uint8_t> bytes(256);
  for (std::size_t i = 0; i < 256; ++i) bytes[i] = static_cast<std::uint8_t>(i);
  std::vector<std::uint8_t> to(256 + 8);
  copy_lower_and_hash(to.data(), bytes.data(), bytes.size(), bytes.size());
  for (std::size_t i = 0; i < 256; ++i) EXPECT_EQ(to[i], lowered(static_cast<std::uint8_t>(i))) << i;
}

// Every length a name can have, from a packet that ends right after it (no whole word past
// the last bytes may be read) and from one with more behind it, bytes of every value.
TEST(CopyLowerAndHash, EqualsLoweringThenHashingForEveryLength) {
  std::mt19937 random(20261206);
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::size_t size = 1; size <= 255; ++size) {
    for (std::size_t extra : {std::size_t{0}, std::size_t{3}, std::size_t{4}, std::size_t{8}}) {
      std::vector<std::uint8_t> packet(size + extra);
      for (auto& b : packet) b = static_cast<std::uint8_t>(byte(random));
      std::vector<std::uint8_t> expected(packet.begin(), packet.begin() + static_cast<std::ptrdiff_t>(size));
      for (auto& b : expected) b = lowered(b);

      std::vector<std::uint8_t> to(size + 8, 0xEE);
      std::uint64_t hash = copy_lower_and_hash(to.data(), packet.data(), size, packet.size());
      EXPECT_EQ(std::vector<std::uint8_t>(to.begin(), to.begin() + static_cast<std::ptrdiff_t>(size)), expected)
          << "size " << size << " extra " << extra;
      EXPECT_EQ(hash, hash_lower_wire(expected)) << "size " << size << " extra " << extra;
    }
  }
}

// A name's hash does not depend on its letter case or on the bytes after it.
TEST(CopyLowerAndHash, IgnoresCaseAndWhatFollowsTheName) {
  const std::vector<std::uint8_t> lower = {3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 0};
  std::vector<std::uint8_t> shouted = {3, 'W', 'w', 'W', 7, 'E', 'X', 'a', 'M', 'p', 'L', 'E', 0, 0x00, 0x01, 0x00, 0x01};
  std::vector<std::uint8_t> to(lower.size() + 8);
  std::uint64_t hash = copy_lower_and_hash(to.data(), shouted.data(), lower.size(), shouted.size());
  EXPECT_EQ(hash, hash_lower_wire(lower));
  shouted[13] = 0xFF;  // the qtype after the name
  EXPECT_EQ(copy_lower_and_hash(to.data(), shouted.data(), lower.size(), shouted.size()), hash);
}

// equal_bytes reads whole words, overlapping at the tail: for every size up to 40, equal
// strings are equal, and a difference in any one byte is seen.
TEST(EqualBytes, SeesADifferenceInEveryByteOfEverySize) {
  for (std::size_t size = 0; size <= 40; ++size) {
    std::vector<std::uint8_t> a(size), b(size);
    for (std::size_t i = 0; i < size; ++i) a[i] = b[i] = static_cast<std::uint8_t>(i * 7 + 1);
    EXPECT_TRUE(equal_bytes(a.data(), b.data(), size)) << size;
    for (std::size_t i = 0; i < size; ++i) {
      b[i] ^= 0x20;
      EXPECT_FALSE(equal_bytes(a.data(), b.data(), size)) << "size " << size << " byte " << i;
      b[i] ^= 0x20;
    }
  }
}

// Every name of a table finds its own value and a missing name finds nothing, whatever share
// of the slot the value takes: a 3-bit value (29-bit tag), a 17-bit one, and a full 32-bit
// one that leaves no tag at all (every probe then asks the caller).
TEST(NameIndex, FindsEveryValueWhateverItsWidth) {
  for (std::size_t limit : {std::size_t{5}, std::size_t{100000}, std::size_t{0xFFFFFFFF}}) {
    std::size_t count = std::min<std::size_t>(limit, 3000);
    NameIndex index(count, limit);
    EXPECT_GE(index.value_limit(), limit);
    std::vector<std::uint32_t> values;
    std::vector<std::uint64_t> hashes;
    std::mt19937_64 random(limit);
    for (std::size_t i = 0; i < count; ++i) {
      // Spread over the allowed range, the top value included.
      values.push_back(static_cast<std::uint32_t>(i + 1 == count ? limit - 1 : i * (limit / count)));
      hashes.push_back(random());
      index.insert(hashes.back(), values.back());
    }
    for (std::size_t i = 0; i < count; ++i) {
      auto found = index.find(hashes[i], [&](std::uint32_t value) { return value == values[i]; });
      EXPECT_EQ(found, std::optional<std::uint32_t>(values[i])) << "limit " << limit << " name " << i;
    }
    std::uint64_t missing = random();
    EXPECT_EQ(index.find(missing, [](std::uint32_t) { return false; }), std::nullopt);
  }
}

// Half the bytes of a separate 4-byte tag and 4-byte value: 4 per slot, at most half full.
TEST(NameIndex, TakesFourBytesASlot) {
  NameIndex index(1000);
  EXPECT_EQ(index.slot_count(), 2048u);
  EXPECT_EQ(index.memory_bytes(), 2048u * 4);
}

// The tag decides before the caller is asked: with a 20-bit value, names whose hashes share
// the home slot but differ in the tag bits never reach `equal`.
TEST(NameIndex, ATagMismatchNeverAsksTheCaller) {
  NameIndex index(1000, 1u << 19);
  std::uint64_t stored = 0x1234'5000'0000'0007ULL;
  index.insert(stored, 42);
  std::size_t asked = 0;
  auto count_asks = [&](std::uint32_t) { return ++asked, false; };
  EXPECT_EQ(index.find(stored ^ (std::uint64_t{1} << 63), count_asks), std::nullopt);
  EXPECT_EQ(asked, 0u);
  EXPECT_EQ(index.find(stored, [](std::uint32_t value) { return value == 42; }), std::optional<std::uint32_t>(42));
  EXPECT_EQ(index.home_value(stored), std::optional<std::uint32_t>(42));
}

}  // namespace
}  // namespace cutover::zone
