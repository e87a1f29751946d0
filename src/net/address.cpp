// Numeric socket address parsing and printing with inet_pton / inet_ntop.
#include "net/address.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <charconv>
#include <cstring>

namespace cutover::net {
namespace {

base::Error bad_address(std::string_view text, std::string_view why) {
  return base::make_error(base::ErrorCode::kInvalidArgument,
                          "invalid listen address '" + std::string(text) + "': " + std::string(why));
}

}  // namespace

std::uint16_t SocketAddress::port() const {
  if (family() == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(storage).sin_port);
  if (family() == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6&>(storage).sin6_port);
  return 0;
}

SocketAddress SocketAddress::with_port(std::uint16_t port) const {
  SocketAddress copy = *this;
  if (family() == AF_INET) reinterpret_cast<sockaddr_in&>(copy.storage).sin_port = htons(port);
  if (family() == AF_INET6) reinterpret_cast<sockaddr_in6&>(copy.storage).sin6_port = htons(port);
  return copy;
}

base::Result<SocketAddress> parse_socket_address(std::string_view text) {
  std::string host;
  std::string_view port_text;
  if (!text.empty() && text.front() == '[') {
    auto close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
      return bad_address(text, "expected [IPv6]:PORT");
    }
    host = std::string(text.substr(1, close - 1));
    port_text = text.substr(close + 2);
  } else {
    auto colon = text.rfind(':');
    if (colon == std::string_view::npos) return bad_address(text, "expected ADDRESS:PORT");
    host = std::string(text.substr(0, colon));
    // "::1:53" would parse, but is ambiguous to a reader; IPv6 must be bracketed.
    if (host.find(':') != std::string::npos) return bad_address(text, "IPv6 addresses go in brackets: [ADDRESS]:PORT");
    port_text = text.substr(colon + 1);
  }
  unsigned port = 0;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() || port > 65535) {
    return bad_address(text, "port must be a number from 0 to 65535");
  }

  SocketAddress address;
  auto& v4 = reinterpret_cast<sockaddr_in&>(address.storage);
  auto& v6 = reinterpret_cast<sockaddr_in6&>(address.storage);
  if (::inet_pton(AF_INET, host.c_str(), &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    v4.sin_port = htons(static_cast<std::uint16_t>(port));
    address.length = sizeof(sockaddr_in);
  } else if (::inet_pton(AF_INET6, host.c_str(), &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons(static_cast<std::uint16_t>(port));
    address.length = sizeof(sockaddr_in6);
  } else {
    return bad_address(text, "not a numeric IPv4 or IPv6 address (IPv6 goes in brackets)");
  }
  return address;
}

std::string format_host(const sockaddr_storage& address) {
  char host[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET) {
    ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, host, sizeof host);
    return host;
  }
  if (address.ss_family == AF_INET6) {
    ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(address).sin6_addr, host, sizeof host);
    return host;
  }
  return "unknown";
}

std::string format_address(const sockaddr_storage& address) {
  if (address.ss_family == AF_INET) {
    return format_host(address) + ":" + std::to_string(ntohs(reinterpret_cast<const sockaddr_in&>(address).sin_port));
  }
  if (address.ss_family == AF_INET6) {
    return "[" + format_host(address) + "]:" + std::to_string(ntohs(reinterpret_cast<const sockaddr_in6&>(address).sin6_port));
  }
  return "unknown";
}

std::span<const std::uint8_t> address_bytes(const sockaddr_storage& address) {
  if (address.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
    return {reinterpret_cast<const std::uint8_t*>(&v4.sin_addr), 4};
  }
  if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    return {reinterpret_cast<const std::uint8_t*>(&v6.sin6_addr), 16};
  }
  return {};
}

bool is_loopback_address(const std::string& address) {
  in_addr v4{};
  if (::inet_pton(AF_INET, address.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  if (::inet_pton(AF_INET6, address.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return address == "localhost";
}

}  // namespace cutover::net
