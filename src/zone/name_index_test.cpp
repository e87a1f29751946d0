// The word-at-a-time name helpers: the one-pass copy of a query's name that the answer fast
// path reads (copy_lower_and_hash: lowercased, hashed) against lowering byte by byte and
// hash_lower_wire; and equal_bytes, which compares names a word at a time.
#include "zone/name_index.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace cutover::zone
