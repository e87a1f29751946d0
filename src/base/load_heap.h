// LoadHeap: glibc's malloc set up for a bulk load while one is alive (the zones loaded at
// start and at each reload; docs/operations.md "Large zones and the heap").
//
// By default glibc serves a request of 128 KiB or more with a mapping of its own (raising
// that threshold, up to 32 MiB, as such blocks are freed), unmaps it at free, and hands the
// heap's free top back to the kernel once it passes twice the threshold. A zone load grows
// and frees large vectors (the parsed records, the records handed to the zone, its build
// lists), so it kept asking the kernel for fresh zero-filled pages, one page fault each: on
// the 100,000-name bench zone 13,250 faults where 10,550 with a LoadHeap. While one lives,
// blocks below 32 MiB (glibc's ceiling for the threshold) come from the heap and freed
// memory stays there for the next request. When the last one ends, fixed thresholds of 128
// and 256 KiB apply and malloc_trim(0) returns every free page, the freed records' included.
// Thread-safe: nested and concurrent scopes keep the load setting until the last ends.
#pragma once

#include <malloc.h>

#include <mutex>

namespace cutover::base {

class LoadHeap {
 public:
  LoadHeap() {
    std::lock_guard lock(mutex());
    if (active()++ == 0) {
      ::mallopt(M_MMAP_THRESHOLD, kLoadMmapThreshold);
      ::mallopt(M_TRIM_THRESHOLD, kLoadTrimThreshold);
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
  static constexpr int kLoadMmapThreshold = 32 << 20;  // glibc's HEAP_MAX_SIZE / 2 on 64-bit
  static constexpr int kLoadTrimThreshold = 1 << 30;
  static constexpr int kMmapThreshold = 128 << 10;  // glibc's defaults
  static constexpr int kTrimThreshold = 256 << 10;

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
