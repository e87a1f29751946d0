// Raw UDP and TCP exchanges of prepared bytes (malformed ones included), each bounded by a
// deadline through net/deadline_io, the waits the stub client uses too.
#include "support/wire_exchange.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include "net/deadline_io.h"

namespace cutover::testing {
namespace {

using Clock = std::chrono::steady_clock;

sockaddr_in loopback(std::uint16_t port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return address;
}

}  // namespace

std::optional<std::vector<std::uint8_t>> udp_exchange(std::uint16_t port, std::span<const std::uint8_t> query,
                                                      std::chrono::milliseconds timeout) {
  if (query.size() < 2) return std::nullopt;
  int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return std::nullopt;
  sockaddr_in address = loopback(port);
  std::optional<std::vector<std::uint8_t>> reply;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0 &&
      ::send(fd, query.data(), query.size(), 0) == static_cast<ssize_t>(query.size())) {
    auto deadline = Clock::now() + timeout;
    std::vector<std::uint8_t> buffer(65535);
    // Bounded: each pass consumes one datagram, and the deadline ends the wait.
    while (net::wait_ready(fd, POLLIN, deadline)) {
      ssize_t n = ::recv(fd, buffer.data(), buffer.size(), 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      if (n >= 2 && buffer[0] == query[0] && buffer[1] == query[1]) {
        buffer.resize(static_cast<std::size_t>(n));
        reply = std::move(buffer);
        break;
      }
    }
  }
  ::close(fd);
  return reply;
}

TcpExchanger::TcpExchanger(std::uint16_t port, std::chrono::milliseconds timeout) : port_(port), timeout_(timeout) {}

TcpExchanger::~TcpExchanger() { close_connection(); }

void TcpExchanger::close_connection() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool TcpExchanger::connect_once() {
  close_connection();
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return false;
  sockaddr_in address = loopback(port_);
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    close_connection();
    return false;
  }
  return true;
}

std::optional<std::vector<std::uint8_t>> TcpExchanger::try_exchange(std::span<const std::uint8_t> query) {
  if (fd_ < 0 && !connect_once()) return std::nullopt;
  std::vector<std::uint8_t> framed;
  framed.push_back(static_cast<std::uint8_t>(query.size() >> 8));
  framed.push_back(static_cast<std::uint8_t>(query.size() & 0xff));
  framed.insert(framed.end(), query.begin(), query.end());
  auto deadline = Clock::now() + timeout_;
  if (!net::send_all(fd_, framed.data(), framed.size(), deadline)) {
    close_connection();
    return std::nullopt;
  }
  std::uint8_t prefix[2];
  if (!net::receive_exactly(fd_, prefix, 2, deadline)) {
    close_connection();
    return std::nullopt;
  }
  std::vector<std::uint8_t> reply((std::size_t{prefix[0]} << 8) | prefix[1]);
  if (!net::receive_exactly(fd_, reply.data(), reply.size(), deadline)) {
    close_connection();
    return std::nullopt;
  }
  return reply;
}

std::optional<std::vector<std::uint8_t>> TcpExchanger::exchange(std::span<const std::uint8_t> query) {
  bool reused = fd_ >= 0;
  auto reply = try_exchange(query);
  // A kept connection may have been closed by the server's idle timeout: one fresh try.
  if (!reply && reused) reply = try_exchange(query);
  return reply;
}

}  // namespace cutover::testing
