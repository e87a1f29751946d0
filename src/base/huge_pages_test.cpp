// HugePageAllocator: large blocks are 2 MiB-aligned mappings advised for huge pages, small
// ones ordinary heap blocks, and a vector using it behaves like any other.
#include "base/huge_pages.h"

#include "base/huge_page_count.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cutover::base {
namespace {

// The VmFlags line of the mapping that holds `address`, from /proc/self/smaps.
std::string flags_of_mapping(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  auto at = reinterpret_cast<std::uintptr_t>(address);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t start = 0, end = 0;
    char dash = 0;
    std::istringstream range(line);
    if (range >> std::hex >> start >> dash >> end && dash == '-' && line.find(':') > line.find(' ')) {
      inside = start <= at && at < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(HugePageAllocator, LargeBlocksAreAlignedAndAdvised) {
  std::vector<std::uint32_t, HugePageAllocator<std::uint32_t>> slots(kHugePageSize / sizeof(std::uint32_t) + 1, 7);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(slots.data()) % kHugePageSize, 0u);
  EXPECT_EQ(slots.back(), 7u);
  slots.back() = 9;  // writable to the last element
  EXPECT_NE(flags_of_mapping(slots.data()).find(" hg"), std::string::npos) << flags_of_mapping(slots.data());
}

TEST(HugePageAllocator, SmallBlocksComeFromTheHeap) {
  std::vector<std::uint8_t, HugePageAllocator<std::uint8_t>> small(100, 1);
  EXPECT_EQ(flags_of_mapping(small.data()).find(" hg"), std::string::npos);
  small.assign(kHugePageSize * 2, 3);  // grows into a huge block, frees the small one
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small.data()) % kHugePageSize, 0u);
  EXPECT_EQ(small[kHugePageSize * 2 - 1], 3);
}

// A block ends at the small page after its last byte: one huge page and one small one
// here, not two huge pages (the partial last 2 MiB would be wasted).
TEST(HugePageAllocator, MappedBytesAreCountedInWholeSmallPagesUntilFreed) {
  std::size_t before = huge_page_bytes_mapped();
  {
    std::vector<std::uint8_t, HugePageAllocator<std::uint8_t>> block(kHugePageSize + 1);
    EXPECT_EQ(huge_page_bytes_mapped() - before, kHugePageSize + 4096);
    block.back() = 1;  // the tail page is mapped
    std::vector<std::uint8_t, HugePageAllocator<std::uint8_t>> small(1000);  // from the heap
    EXPECT_EQ(huge_page_bytes_mapped() - before, kHugePageSize + 4096);
  }
  EXPECT_EQ(huge_page_bytes_mapped(), before);
}

}  // namespace
}  // namespace cutover::base
