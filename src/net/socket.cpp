// Socket setup shared by the UDP and TCP listeners.
#include "net/socket.h"

#include <netinet/in.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace cutover::net {
namespace {

constexpr int kListenBacklog = 128;

base::Error socket_error(std::string_view what, const SocketAddress& address) {
  return base::make_error(base::ErrorCode::kIo, std::string(what) + " " + format_address(address.storage) + ": " +
                                                    std::strerror(errno));
}

bool set_int_option(int fd, int level, int name, int value) {
  return ::setsockopt(fd, level, name, &value, sizeof value) == 0;
}

}  // namespace

void UniqueFd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

base::Result<UniqueFd> open_listening_socket(const SocketAddress& address, SocketKind kind,
                                             const SocketOptions& options) {
  int type = (kind == SocketKind::kUdp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_NONBLOCK | SOCK_CLOEXEC;
  UniqueFd fd(::socket(address.family(), type, 0));
  if (!fd.valid()) return socket_error("socket", address);
  if (!set_int_option(fd.get(), SOL_SOCKET, SO_REUSEADDR, 1)) return socket_error("SO_REUSEADDR", address);
  if (options.reuse_port && !set_int_option(fd.get(), SOL_SOCKET, SO_REUSEPORT, 1)) {
    return socket_error("SO_REUSEPORT", address);
  }
  // Keep IPv6 sockets IPv6-only so "[::]:53" and "0.0.0.0:53" can both be listed.
  if (address.family() == AF_INET6 && !set_int_option(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, 1)) {
    return socket_error("IPV6_V6ONLY", address);
  }
  // A bigger buffer absorbs bursts; the kernel silently caps it at net.core.rmem_max.
  if (options.receive_buffer > 0) set_int_option(fd.get(), SOL_SOCKET, SO_RCVBUF, options.receive_buffer);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&address.storage), address.length) != 0) {
    return socket_error("bind", address);
  }
  if (kind == SocketKind::kTcp && ::listen(fd.get(), kListenBacklog) != 0) return socket_error("listen", address);
  return fd;
}

base::Result<SocketAddress> local_address(int fd) {
  SocketAddress address;
  address.length = sizeof address.storage;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address.storage), &address.length) != 0) {
    return base::make_error(base::ErrorCode::kIo, std::string("getsockname: ") + std::strerror(errno));
  }
  return address;
}

StopSignal::StopSignal() : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  // Startup code, allowed to throw: without it no thread could ever be stopped.
  if (!fd_.valid()) throw std::runtime_error(std::string("eventfd: ") + std::strerror(errno));
}

void StopSignal::raise() {
  std::uint64_t one = 1;
  // Nobody reads the counter, so it stays readable (level-triggered) for every poller.
  [[maybe_unused]] auto written = ::write(fd_.get(), &one, sizeof one);
}

}  // namespace cutover::net
