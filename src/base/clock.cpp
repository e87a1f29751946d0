// The monotonic and realtime readings of base/clock.h, in nanoseconds.
#include "base/clock.h"

#include <time.h>

#include <cmath>
#include <ratio>
#include <type_traits>

namespace cutover::base {
namespace {

constexpr std::int64_t kSecondNs = 1'000'000'000;

// monotonic_ns() hands out steady_clock's count as nanoseconds, and sleep_until() passes it to
// clock_nanosleep(CLOCK_MONOTONIC): both need steady_clock to count CLOCK_MONOTONIC in ns, as
// libstdc++ does on Linux (its steady_clock::now() is clock_gettime(CLOCK_MONOTONIC)).
static_assert(std::is_same_v<std::chrono::steady_clock::period, std::nano>,
              "monotonic_ns() needs a steady_clock that counts nanoseconds");

std::int64_t realtime_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * kSecondNs + now.tv_nsec;
}

}  // namespace

std::int64_t monotonic_ns() { return std::chrono::steady_clock::now().time_since_epoch().count(); }

double realtime_phase() { return static_cast<double>(realtime_ns() % kSecondNs) / 1e9; }

void sleep_until(std::int64_t deadline_ns) {
  timespec at{};
  at.tv_sec = deadline_ns / kSecondNs;
  at.tv_nsec = deadline_ns % kSecondNs;
  // clock_nanosleep returns early only when a signal interrupts it (EINTR): sleep on.
  while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr) != 0) {
  }
}

void sleep_until_phase(double phase, std::int64_t min_wait_ns) {
  std::int64_t now_real = realtime_ns();
  std::int64_t earliest = now_real + min_wait_ns;
  std::int64_t target = earliest - earliest % kSecondNs + static_cast<std::int64_t>(std::llround(phase * 1e9));
  if (target < earliest) target += kSecondNs;
  sleep_until(monotonic_ns() + (target - now_real));
}

}  // namespace cutover::base
