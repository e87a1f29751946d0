// LoadHeap: large blocks come from the heap while a scope lives, from their own mappings
// again once the last one ends (glibc counts the latter in mallinfo2().hblks).
#include "base/load_heap.h"

#include <malloc.h>

#include <cstdlib>

#include <gtest/gtest.h>

#include "base/sanitized.h"

namespace cutover::base {
namespace {

constexpr std::size_t kBlock = 1 << 20;  // above glibc's default 128 KiB threshold

// Mappings glibc holds after allocating (and touching) one large block; the block is freed.
std::size_t mapped_with_a_large_block() {
  void* block = std::malloc(kBlock);
  EXPECT_NE(block, nullptr);
  static_cast<volatile char*>(block)[0] = 1;  // kept: the pair may not be optimised away
  std::size_t mapped = ::mallinfo2().hblks;
  std::free(block);
  return mapped;
}

TEST(LoadHeap, LargeBlocksComeFromTheHeapUntilTheLastScopeEnds) {
  if (kSanitized) GTEST_SKIP() << "sanitized build: malloc is the sanitizer's";
  std::size_t idle = ::mallinfo2().hblks;
  {
    LoadHeap outer;
    {
      LoadHeap inner;
      EXPECT_EQ(mapped_with_a_large_block(), idle);
    }
    EXPECT_EQ(mapped_with_a_large_block(), idle);  // the outer scope still holds it
  }
  EXPECT_EQ(mapped_with_a_large_block(), idle + 1);
}

}  // namespace
}  // namespace cutover::base
