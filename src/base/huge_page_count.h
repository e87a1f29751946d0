// The bytes HugePageAllocator has mapped and not yet unmapped, in this process: the
// huge-page share of what a zone occupies, which the perf gate's memory figure adds to the
// heap bytes it counts (bench/zone_memory.cpp, docs/performance.md). Thread-safe.
#pragma once

#include <cstddef>

namespace cutover::base {

std::size_t huge_page_bytes_mapped();

}  // namespace cutover::base
