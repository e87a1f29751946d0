// `cutover serve` re-executed once with glibc's huge-page heap tunable (huge_page_heap.h).
#include "cmd/huge_page_heap.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "base/sanitized.h"

namespace cutover::cmd {

namespace {

constexpr const char* kMarker = "CUTOVER_HUGE_PAGE_HEAP";

char** noted_argv = nullptr;
bool restarted = false;

// Valgrind preloads its vgpreload_*.so into the program it runs; an exec would leave the
// tool behind (it follows children only when asked), so a profile would lose the server.
bool under_valgrind() {
  const char* preload = std::getenv("LD_PRELOAD");
  return preload != nullptr && std::strstr(preload, "vgpreload") != nullptr;
}

}  // namespace

void note_arguments(int argc, char** argv) {
  noted_argv = argc > 0 ? argv : nullptr;
  if (std::getenv(kMarker) != nullptr) {
    // The second start: glibc has read the tunable; children get the environment as it was.
    restarted = true;
    unsetenv(kMarker);
    unsetenv("GLIBC_TUNABLES");
  }
}

void restart_with_huge_page_heap(std::uintmax_t zone_bytes) {
  if (zone_bytes < kHugePageHeapZoneBytes || restarted || noted_argv == nullptr) return;
  if (std::getenv("GLIBC_TUNABLES") != nullptr || base::kSanitized || under_valgrind()) return;
  if (setenv("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1", 1) != 0 || setenv(kMarker, "1", 1) != 0) return;
  execv("/proc/self/exe", noted_argv);
  // Not re-executed (no /proc, say): serve with the ordinary heap, environment unchanged.
  unsetenv(kMarker);
  unsetenv("GLIBC_TUNABLES");
}

}  // namespace cutover::cmd
