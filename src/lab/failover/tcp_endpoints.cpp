// Loopback TCP endpoints for E10, accepted and closed on one polling thread.
#include "lab/failover/tcp_endpoints.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "base/clock.h"

namespace cutover::lab {
namespace {

constexpr int kPollMs = 20;  // how soon the loop sees new listeners and the stop flag

}  // namespace

TcpEndpoints::TcpEndpoints() : thread_([this] { accept_loop(); }) {}

TcpEndpoints::~TcpEndpoints() {
  stopping_ = true;
  thread_.join();
  for (const auto& [key, fd] : listeners_) ::close(fd);
  for (int fd : closing_) ::close(fd);
}

base::Result<std::uint16_t> TcpEndpoints::open(const std::string& address) {
  sockaddr_in bound{};
  bound.sin_family = AF_INET;
  if (::inet_pton(AF_INET, address.c_str(), &bound.sin_addr) != 1) {
    return base::make_error(base::ErrorCode::kInvalidArgument, "not an IPv4 address: " + address);
  }
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return base::make_error(base::ErrorCode::kIo, std::string("socket: ") + std::strerror(errno));
  socklen_t length = sizeof bound;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&bound), sizeof bound) != 0 || ::listen(fd, 64) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &length) != 0) {
    std::string reason = std::strerror(errno);
    ::close(fd);
    return base::make_error(base::ErrorCode::kIo, "cannot listen on " + address + ": " + reason);
  }
  std::uint16_t port = ntohs(bound.sin_port);
  std::lock_guard lock(mutex_);
  listeners_[{address, port}] = fd;
  return port;
}

base::Result<std::int64_t> TcpEndpoints::close(const std::string& address, std::uint16_t port) {
  std::lock_guard lock(mutex_);
  auto it = listeners_.find({address, port});
  if (it == listeners_.end()) {
    return base::make_error(base::ErrorCode::kNotFound, "no endpoint " + address + ":" + std::to_string(port));
  }
  // shutdown() stops a Linux listener at once (later SYNs get a RST) while the fd number stays
  // taken, so the loop, which may be polling it right now, never touches a reused number;
  // the loop closes it on its next turn.
  ::shutdown(it->second, SHUT_RDWR);
  std::int64_t at = base::monotonic_ns();
  closing_.push_back(it->second);
  listeners_.erase(it);
  return at;
}

void TcpEndpoints::accept_loop() {
  while (!stopping_) {
    std::vector<pollfd> waiting;
    {
      std::lock_guard lock(mutex_);
      for (int fd : closing_) ::close(fd);
      closing_.clear();
      for (const auto& [key, fd] : listeners_) waiting.push_back({fd, POLLIN, 0});
    }
    int ready = ::poll(waiting.data(), waiting.size(), kPollMs);
    for (std::size_t i = 0; ready > 0 && i < waiting.size(); ++i) {
      if ((waiting[i].revents & POLLIN) == 0) continue;
      // Non-blocking listener: drain what is queued; a shut-down one fails at once.
      for (int client = ::accept4(waiting[i].fd, nullptr, nullptr, SOCK_CLOEXEC); client >= 0;
           client = ::accept4(waiting[i].fd, nullptr, nullptr, SOCK_CLOEXEC)) {
        ::close(client);
      }
    }
  }
}

}  // namespace cutover::lab
