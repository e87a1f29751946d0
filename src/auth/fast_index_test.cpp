// The fast index's name compare (equal_stored_name): for every size a stored name can have,
// equal bytes are equal and a difference in any one byte is seen, the 4-to-7-byte case (two
// overlapping 4-byte words) included.
#include "auth/fast_index.h"

#include <gtest/gtest.h>

#include <vector>

namespace cutover::auth {
namespace {

TEST(EqualStoredName, SeesADifferenceInEveryByteOfEverySize) {
  for (std::size_t size = 0; size <= 40; ++size) {
    std::vector<std::uint8_t> a(size), b(size);
    for (std::size_t i = 0; i < size; ++i) a[i] = b[i] = static_cast<std::uint8_t>(i * 7 + 1);
    EXPECT_TRUE(equal_stored_name(a.data(), b.data(), size)) << size;
    for (std::size_t i = 0; i < size; ++i) {
      b[i] ^= 0x20;
      EXPECT_FALSE(equal_stored_name(a.data(), b.data(), size)) << "size " << size << " byte " << i;
      b[i] ^= 0x20;
    }
  }
}

}  // namespace
}  // namespace cutover::auth
