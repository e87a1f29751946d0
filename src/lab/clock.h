// The lab's one clock: CLOCK_MONOTONIC, which the lab runner and the lab authority (a separate
// `cutover serve --lab` process) read alike, so change times and poll times compare directly.
// Also the wall-clock phase used to place cache fills inside a second. Thread-safe.
#pragma once

#include <cstdint>

namespace cutover::lab {

// CLOCK_MONOTONIC in nanoseconds.
std::int64_t monotonic_ns();
// Seconds between two monotonic_ns() readings.
inline double seconds_between(std::int64_t from_ns, std::int64_t to_ns) {
  return static_cast<double>(to_ns - from_ns) / 1e9;
}
// Fraction of the current CLOCK_REALTIME second, in [0, 1).
double realtime_phase();
// Sleeps until CLOCK_REALTIME is `phase` into a second, at least `min_wait_ns` from now.
// Resolvers count TTLs in whole realtime seconds, so fills placed this way share one rounding.
void sleep_until_phase(double phase, std::int64_t min_wait_ns = 0);
// Sleeps until monotonic_ns() reaches `deadline_ns` (returns at once if it passed).
void sleep_until(std::int64_t deadline_ns);

}  // namespace cutover::lab
