// Huge pages for the heap of `cutover serve` with large zones. Loading a zone allocates its
// records in many small heap blocks before the zone's compact arrays replace them; on a
// virtual machine the page fault per 4 KiB of that heap is a large share of the load
// (docs/operations.md, "Large zones and the heap"; docs/performance.md, "Four-byte slots,
// names without the origin, a huge-page heap"). glibc's malloc can back its heap
// with transparent huge pages (the glibc.malloc.hugetlb=1 tunable, glibc 2.35 and later), but
// reads tunables only from the environment when a process starts, so `serve` starts itself
// once more with it set when its zone files are large.
#pragma once

#include <cstdint>

namespace cutover::cmd {

// Zone files of at least this many bytes in all (about 300,000 names of the bench zone) are
// loaded from a huge-page heap. Below it the faults cost little, and the heap's 2 MiB pages
// would keep more memory resident than the time they save is worth (about 1 MB at 100,000
// names, docs/performance.md).
constexpr std::uintmax_t kHugePageHeapZoneBytes = std::uintmax_t{8} << 20;

// Called first in main: keeps argv for restart_with_huge_page_heap, and in a process that
// restart started, removes what it added to the environment, so nothing it starts inherits it.
void note_arguments(int argc, char** argv);

// For zone files of `zone_bytes` in all, at or above kHugePageHeapZoneBytes: re-executes this
// binary with the same arguments and process ID and GLIBC_TUNABLES=glibc.malloc.hugetlb=1.
// Does nothing below the threshold, in a process it already restarted, when the caller set
// GLIBC_TUNABLES itself (any value: the way to opt out), under valgrind or a sanitizer, or
// when the exec fails. Call it before the process starts threads or changes its signal mask.
void restart_with_huge_page_heap(std::uintmax_t zone_bytes);

}  // namespace cutover::cmd
