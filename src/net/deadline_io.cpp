// poll(2)-bounded waits and whole-buffer transfers.
#include "net/deadline_io.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

namespace cutover::net {
namespace {

// Calls `move(done)` (one send or recv from offset `done`) until `size` bytes have moved,
// waiting for `events` before each call.
template <typename Move>
bool transfer_all(int fd, short events, std::size_t size, Deadline deadline, Move move) {
  std::size_t done = 0;
  while (done < size) {
    if (!wait_ready(fd, events, deadline)) return false;
    ssize_t n = move(done);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

bool wait_ready(int fd, short events, Deadline deadline) {
  while (true) {
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd entry{fd, events, 0};
    int ready = ::poll(&entry, 1, static_cast<int>(left));
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return false;
  }
}

bool send_all(int fd, const std::uint8_t* data, std::size_t size, Deadline deadline) {
  return transfer_all(fd, POLLOUT, size, deadline,
                      [&](std::size_t done) { return ::send(fd, data + done, size - done, MSG_NOSIGNAL); });
}

bool receive_exactly(int fd, std::uint8_t* data, std::size_t size, Deadline deadline) {
  return transfer_all(fd, POLLIN, size, deadline,
                      [&](std::size_t done) { return ::recv(fd, data + done, size - done, 0); });
}

}  // namespace cutover::net
