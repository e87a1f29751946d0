// LoadHeap: large blocks come from the heap while a scope lives, from their own mappings
// again once the last one ends (glibc counts the latter in mallinfo2().hblks).
#include "base/load_heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

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

// Whether this kernel takes MADV_POPULATE_WRITE (Linux 5.14 and later).
bool kernel_populates() {
  void* page = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return false;
  bool ok = ::madvise(page, 4096, MADV_POPULATE_WRITE) == 0;
  ::munmap(page, 4096);
  return ok;
}

// How many of the whole pages inside [block, block + bytes) are resident, by mincore(2),
// which reads the page tables without touching the pages.
std::size_t resident_pages(void* block, std::size_t bytes, std::size_t& pages) {
  auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  auto at = reinterpret_cast<std::uintptr_t>(block);
  std::uintptr_t begin = (at + page - 1) & ~(page - 1);
  std::uintptr_t end = (at + bytes) & ~(page - 1);
  pages = (end - begin) / page;
  std::vector<unsigned char> in_core(pages);
  if (::mincore(reinterpret_cast<void*>(begin), end - begin, in_core.data()) != 0) return 0;
  std::size_t resident = 0;
  for (unsigned char flags : in_core) resident += flags & 1;
  return resident;
}

TEST(LoadHeap, APrefaultedHeapIsResidentBeforeTheLoadWritesIt) {
  if (kSanitized) GTEST_SKIP() << "sanitized build: malloc is the sanitizer's";
  if (!kernel_populates()) GTEST_SKIP() << "this kernel refuses MADV_POPULATE_WRITE";
  constexpr std::size_t kLoad = 4 << 20;
  std::size_t pages = 0;
  {
    LoadHeap heap(16 << 20);
    void* block = std::malloc(kLoad);  // carved from the prefaulted top of the heap
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(resident_pages(block, kLoad, pages), pages);
    EXPECT_GT(pages, 0u);
    std::free(block);
  }
  {
    LoadHeap heap;  // nothing prefaulted: the end of the last scope trimmed the heap
    void* block = std::malloc(kLoad);
    ASSERT_NE(block, nullptr);
    EXPECT_LT(resident_pages(block, kLoad, pages), pages / 2);
    std::free(block);
  }
}

}  // namespace
}  // namespace cutover::base
