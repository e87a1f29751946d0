// HugePageAllocator: an allocator for large, long-lived arrays read at random on the answer
// path (name index slots, pre-encoded answer arenas). Blocks of 2 MiB and more are mapped
// 2 MiB-aligned and marked MADV_HUGEPAGE before anything touches them, so the kernel backs
// them with huge pages and a lookup needs no page-table walk (under a hypervisor a walk
// costs up to two dozen memory reads). Smaller blocks come from operator new. Stateless,
// thread-safe.
#pragma once

#include <cstddef>
#include <new>

namespace cutover::base {

constexpr std::size_t kHugePageSize = std::size_t{2} << 20;

// `bytes` rounded up to whole small pages, mapped 2 MiB-aligned and advised; throws std::bad_alloc.
void* allocate_huge_pages(std::size_t bytes);
void free_huge_pages(void* block, std::size_t bytes);

template <typename T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t count) {
    std::size_t bytes = count * sizeof(T);
    if (bytes >= kHugePageSize) return static_cast<T*>(allocate_huge_pages(bytes));
    return static_cast<T*>(::operator new(bytes));
  }
  void deallocate(T* block, std::size_t count) noexcept {
    std::size_t bytes = count * sizeof(T);
    if (bytes >= kHugePageSize) {
      free_huge_pages(block, bytes);
    } else {
      ::operator delete(block);
    }
  }
  template <typename U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace cutover::base
