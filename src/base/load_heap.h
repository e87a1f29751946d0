// LoadHeap: glibc's malloc set up for a bulk load while one is alive (the zones loaded at
// start and at each reload; docs/operations.md "Large zones and the heap").
//
// By default glibc serves a request of 128 KiB or more with a mapping of its own (raising
// that threshold, up to 32 MiB, as such blocks are freed), unmaps it at free, and hands the
// heap's free top back to the kernel once it passes twice the threshold. A zone load grows
// and frees large vectors (the parsed records, the records handed to the zone, its build
// lists), so it kept asking the kernel for fresh zero-filled pages, one page fault each: on
// the 100,000-name bench zone 11,594 faults where 7,770 with a LoadHeap. While one lives,
// blocks below 32 MiB (glibc's ceiling for the threshold) come from the heap and freed
// memory stays there for the next request. When the last one ends, fixed thresholds of 128
// and 256 KiB apply and malloc_trim(0) returns every free page, the freed records' included.
// Thread-safe: nested and concurrent scopes keep the load setting until the last ends.
//
// `prefault_bytes` (the first scope's only; at most kMaxPrefault): heap the load will use,
// made resident at once (madvise MADV_POPULATE_WRITE over a block taken and freed again at
// the heap's top, where the load's allocations then find it) instead of one page fault per
// 4 KiB as the load first writes each page: one call where there were thousands of faults,
// each an exception into the kernel. Whatever the load does not use goes back with the rest
// at the end. Kernels before 5.14 refuse the advice, and the load faults as before.
#pragma once

#include <malloc.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#include "base/sanitized.h"

namespace cutover::base {

class LoadHeap {
 public:
  explicit LoadHeap(std::size_t prefault_bytes = 0) {
    std::lock_guard lock(mutex());
    if (active()++ == 0) {
      ::mallopt(M_MMAP_THRESHOLD, kLoadMmapThreshold);
      ::mallopt(M_TRIM_THRESHOLD, kLoadTrimThreshold);
      if (!kSanitized) prefault(std::min(prefault_bytes, kMaxPrefault));
    }
  }
  ~LoadHeap() {
    std::lock_guard lock(mutex());
    if (--active() == 0) {
      ::mallopt(M_MMAP_THRESHOLD, kMmapThreshold);
      ::mallopt(M_TRIM_THRESHOLD, kTrimThreshold);
      ::malloc_trim(0);
    }
  }
  LoadHeap(const LoadHeap&) = delete;
  LoadHeap& operator=(const LoadHeap&) = delete;

 private:
  // Below the load's mmap threshold, so the block comes from (and returns to) the heap.
  static constexpr std::size_t kMaxPrefault = 31 << 20;
  static constexpr std::size_t kPage = 4096;
  static constexpr int kLoadMmapThreshold = 32 << 20;  // glibc's HEAP_MAX_SIZE / 2 on 64-bit
  static constexpr int kLoadTrimThreshold = 1 << 30;
  static constexpr int kMmapThreshold = 128 << 10;  // glibc's default
  static constexpr int kTrimThreshold = 256 << 10;  // twice it, as glibc keeps the pair when it moves them

  static void prefault(std::size_t bytes) {
    if (bytes < 16 * kPage) return;
    void* block = std::malloc(bytes);
    if (block == nullptr) return;
    auto at = reinterpret_cast<std::uintptr_t>(block);
    std::uintptr_t begin = (at + kPage - 1) & ~(kPage - 1);
    std::uintptr_t end = (at + bytes) & ~(kPage - 1);
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
    std::free(block);
  }
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static int& active() {
    static int count = 0;
    return count;
  }
};

}  // namespace cutover::base
