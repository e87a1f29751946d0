// cutover_zone_memory: what a zone occupies once loaded, as counted by this process itself,
// the memory figure of the perf gate (scripts/perf-gate.sh, docs/performance.md): the bytes
// requested from operator new and not yet freed, plus the huge pages HugePageAllocator has
// mapped (base/huge_page_count.h), after load_zone_file and the ZoneSet (its fast index)
// are built, minus the same before. Deterministic for a given zone file and build, unlike
// RSS or PSS: no allocator overhead, no page rounding, no shared libraries.
// Usage: cutover_zone_memory ORIGIN ZONE_FILE
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "auth/engine.h"
#include "base/huge_page_count.h"
#include "zone/loader.h"

namespace {

// One process-wide count is what a replaced operator new can keep. Each block carries its
// requested size in a header as large as its alignment, so delete knows what to subtract.
std::size_t live_bytes = 0;

void* counted_new(std::size_t size, std::size_t alignment) {
  alignment = std::max(alignment, alignof(std::max_align_t));
  void* block = std::aligned_alloc(alignment, (alignment + size + alignment - 1) / alignment * alignment);
  if (block == nullptr) return nullptr;
  *static_cast<std::size_t*>(block) = size;
  live_bytes += size;
  return static_cast<char*>(block) + alignment;
}

void counted_delete(void* pointer, std::size_t alignment) noexcept {
  if (pointer == nullptr) return;
  alignment = std::max(alignment, alignof(std::max_align_t));
  void* block = static_cast<char*>(pointer) - alignment;
  live_bytes -= *static_cast<std::size_t*>(block);
  std::free(block);
}

void* counted_new_or_throw(std::size_t size, std::size_t alignment) {
  void* block = counted_new(size, alignment);
  if (block == nullptr) throw std::bad_alloc();
  return block;
}

}  // namespace

void* operator new(std::size_t size) { return counted_new_or_throw(size, 0); }
void* operator new[](std::size_t size) { return counted_new_or_throw(size, 0); }
void* operator new(std::size_t size, std::align_val_t align) {
  return counted_new_or_throw(size, static_cast<std::size_t>(align));
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return counted_new_or_throw(size, static_cast<std::size_t>(align));
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return counted_new(size, 0); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return counted_new(size, 0); }
void operator delete(void* pointer) noexcept { counted_delete(pointer, 0); }
void operator delete[](void* pointer) noexcept { counted_delete(pointer, 0); }
void operator delete(void* pointer, std::size_t) noexcept { counted_delete(pointer, 0); }
void operator delete[](void* pointer, std::size_t) noexcept { counted_delete(pointer, 0); }
void operator delete(void* pointer, std::align_val_t align) noexcept {
  counted_delete(pointer, static_cast<std::size_t>(align));
}
void operator delete[](void* pointer, std::align_val_t align) noexcept {
  counted_delete(pointer, static_cast<std::size_t>(align));
}
void operator delete(void* pointer, std::size_t, std::align_val_t align) noexcept {
  counted_delete(pointer, static_cast<std::size_t>(align));
}
void operator delete[](void* pointer, std::size_t, std::align_val_t align) noexcept {
  counted_delete(pointer, static_cast<std::size_t>(align));
}

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: cutover_zone_memory ORIGIN ZONE_FILE\n");
    return 2;
  }
  auto origin = cutover::dns::Name::from_text(argv[1]);
  if (!origin) return 2;
  std::size_t heap_before = live_bytes;
  std::size_t huge_before = cutover::base::huge_page_bytes_mapped();
  auto load = cutover::zone::load_zone_file(*origin, argv[2]);
  if (!load.zone) {
    std::fprintf(stderr, "cutover_zone_memory: %s did not load\n", argv[2]);
    return 1;
  }
  load.diagnostics.clear();
  load.diagnostics.shrink_to_fit();
  cutover::auth::ZoneSet zones({load.zone});
  std::size_t heap = live_bytes - heap_before;
  std::size_t huge = cutover::base::huge_page_bytes_mapped() - huge_before;
  std::printf("heap_bytes %zu huge_page_bytes %zu zone_bytes %zu\n", heap, huge, heap + huge);
  return 0;
}
