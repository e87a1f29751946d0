// Socket addresses for listeners: parsing "127.0.0.1:5353" / "[::1]:5353" and printing
// a client address for logs. Plain value types; thread-safe.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/result.h"

namespace cutover::net {

struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;

  int family() const { return storage.ss_family; }
  std::uint16_t port() const;
  // With the port replaced (used when the kernel picked port 0 for the first socket).
  SocketAddress with_port(std::uint16_t port) const;
};

// "IPv4:PORT" or "[IPv6]:PORT"; numeric addresses only (a server must not depend on DNS
// to start). Port 0 asks the kernel for a free port.
base::Result<SocketAddress> parse_socket_address(std::string_view text);

// "192.0.2.1:53" or "[2001:db8::1]:53".
std::string format_address(const sockaddr_storage& address);
// The address alone, without port or brackets: "192.0.2.1" or "2001:db8::1" ("unknown" for
// another family).
std::string format_host(const sockaddr_storage& address);

// The address alone, in network order: 4 bytes for IPv4, 16 for IPv6, empty otherwise.
// Points into `address`.
std::span<const std::uint8_t> address_bytes(const sockaddr_storage& address);

// True for 127.0.0.0/8, ::1 and "localhost".
bool is_loopback_address(const std::string& address);

}  // namespace cutover::net
