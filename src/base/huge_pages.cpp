// Mapping 2 MiB-aligned blocks for HugePageAllocator: map one huge page more than needed,
// cut the unaligned head and tail off, advise the rest. The block ends at the small page
// after its last byte, not at a huge-page boundary: the kernel backs each whole 2 MiB range
// with a huge page and the partial last one with small pages, so a 4.4 MB arena costs
// 4.4 MB, not 6 (docs/performance.md, memory).
#include "base/huge_pages.h"

#include <sys/mman.h>

#include <atomic>
#include <cstdint>

#include "base/huge_page_count.h"

namespace cutover::base {
namespace {

constexpr std::size_t kSmallPageSize = 4096;

std::size_t round_up(std::size_t bytes) { return (bytes + kSmallPageSize - 1) & ~(kSmallPageSize - 1); }

// Process-wide by nature: the mappings are the process's (huge_page_count.h).
std::atomic<std::size_t> mapped_bytes{0};

}  // namespace

std::size_t huge_page_bytes_mapped() { return mapped_bytes.load(std::memory_order_relaxed); }

void* allocate_huge_pages(std::size_t bytes) {
  std::size_t size = round_up(bytes);
  void* mapped = ::mmap(nullptr, size + kHugePageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  auto start = reinterpret_cast<std::uintptr_t>(mapped);
  std::uintptr_t aligned = (start + kHugePageSize - 1) & ~(kHugePageSize - 1);
  if (aligned > start) ::munmap(mapped, aligned - start);
  std::size_t tail = start + size + kHugePageSize - (aligned + size);
  if (tail > 0) ::munmap(reinterpret_cast<void*>(aligned + size), tail);
  // Only advice: where the kernel has THP off, the block still works on small pages.
  ::madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
  mapped_bytes.fetch_add(size, std::memory_order_relaxed);
  return reinterpret_cast<void*>(aligned);
}

void free_huge_pages(void* block, std::size_t bytes) {
  ::munmap(block, round_up(bytes));
  mapped_bytes.fetch_sub(round_up(bytes), std::memory_order_relaxed);
}

}  // namespace cutover::base
