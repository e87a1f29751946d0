// CLOCK_MONOTONIC and CLOCK_REALTIME helpers for the lab.
#include "lab/clock.h"

#include <time.h>

#include <cmath>

namespace cutover::lab {
namespace {

std::int64_t read_ns(clockid_t clock) {
  timespec now{};
  ::clock_gettime(clock, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

constexpr std::int64_t kSecondNs = 1'000'000'000;

}  // namespace

std::int64_t monotonic_ns() { return read_ns(CLOCK_MONOTONIC); }

double realtime_phase() { return static_cast<double>(read_ns(CLOCK_REALTIME) % kSecondNs) / 1e9; }

void sleep_until(std::int64_t deadline_ns) {
  timespec at{};
  at.tv_sec = deadline_ns / kSecondNs;
  at.tv_nsec = deadline_ns % kSecondNs;
  while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, nullptr) != 0) {
  }
}

void sleep_until_phase(double phase, std::int64_t min_wait_ns) {
  std::int64_t now_real = read_ns(CLOCK_REALTIME);
  std::int64_t earliest = now_real + min_wait_ns;
  std::int64_t target = earliest - earliest % kSecondNs + static_cast<std::int64_t>(std::llround(phase * 1e9));
  if (target < earliest) target += kSecondNs;
  sleep_until(monotonic_ns() + (target - now_real));
}

}  // namespace cutover::lab
