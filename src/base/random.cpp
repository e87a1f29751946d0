#include "base/random.h"

#include <sys/random.h>

#include <cerrno>
#include <random>

namespace cutover::base {

std::uint16_t random_message_id() {
  std::uint16_t id = 0;
  // Two bytes never come short from getrandom(2) once the pool is ready (at most 256 bytes
  // are returned whole); EINTR is retried, and a kernel without it falls back to random_device.
  for (int attempt = 0; attempt < 8; ++attempt) {
    ssize_t got = getrandom(&id, sizeof id, 0);
    if (got == static_cast<ssize_t>(sizeof id)) return id;
    if (got < 0 && errno != EINTR) break;
  }
  std::random_device device;
  return static_cast<std::uint16_t>(device());
}

}  // namespace cutover::base
