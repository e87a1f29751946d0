// Tests for listen address parsing and printing.
#include "net/address.h"

#include <netinet/in.h>

#include <gtest/gtest.h>

namespace cutover::net {
namespace {

TEST(SocketAddress, ParsesIpv4AndIpv6) {
  auto v4 = parse_socket_address("127.0.0.1:5353");
  ASSERT_TRUE(v4.ok());
  EXPECT_EQ(v4->family(), AF_INET);
  EXPECT_EQ(v4->port(), 5353);
  EXPECT_EQ(format_address(v4->storage), "127.0.0.1:5353");
  EXPECT_EQ(format_host(v4->storage), "127.0.0.1");

  auto v6 = parse_socket_address("[::1]:53");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->family(), AF_INET6);
  EXPECT_EQ(v6->port(), 53);
  EXPECT_EQ(format_address(v6->storage), "[::1]:53");
  EXPECT_EQ(format_host(v6->storage), "::1");
}

TEST(SocketAddress, RejectsMalformedText) {
  for (const char* text : {"127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:5x", "::1:53", "[::1]53",
                           "[::1", "localhost:53", ":53"}) {
    auto parsed = parse_socket_address(text);
    EXPECT_FALSE(parsed.ok()) << text;
    if (!parsed.ok()) {
      EXPECT_NE(parsed.error().message.find(text), std::string::npos);
    }
  }
}

TEST(SocketAddress, WithPortReplacesOnlyThePort) {
  auto address = parse_socket_address("[::1]:0");
  ASSERT_TRUE(address.ok());
  EXPECT_EQ(format_address(address->with_port(8053).storage), "[::1]:8053");
}

}  // namespace
}  // namespace cutover::net
