// Blocking-style waits and transfers on a socket, each bounded by one deadline: for stub
// clients (client/query) and test peers, never for the serving threads. EINTR is retried;
// a socket may be blocking or non-blocking (EAGAIN waits again).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace cutover::net {

using Deadline = std::chrono::steady_clock::time_point;

// Waits until `fd` is ready for `events` (POLLIN, POLLOUT); false when the deadline passes
// first or poll(2) fails.
bool wait_ready(int fd, short events, Deadline deadline);

// Sends all `size` bytes (MSG_NOSIGNAL) before the deadline; false on timeout, error or a
// closed peer.
bool send_all(int fd, const std::uint8_t* data, std::size_t size, Deadline deadline);

// Receives exactly `size` bytes before the deadline; false on timeout, error or EOF.
bool receive_exactly(int fd, std::uint8_t* data, std::size_t size, Deadline deadline);

}  // namespace cutover::net
