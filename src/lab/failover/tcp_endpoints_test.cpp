// Unit tests: a lab-owned TCP endpoint accepts connections until it is closed, then refuses
// them, as a killed service does (loopback only).
#include "lab/failover/tcp_endpoints.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include <gtest/gtest.h>

namespace cutover::lab {
namespace {

// 0 when a connection to 127.0.0.1:port completes, else errno.
int connect_error(std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  int result = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 ? 0 : errno;
  ::close(fd);
  return result;
}

TEST(TcpEndpoints, AcceptsUntilClosedThenRefuses) {
  TcpEndpoints endpoints;
  auto port = endpoints.open("127.0.0.1");
  ASSERT_TRUE(port);
  // More connections than the backlog: the loop must keep accepting.
  for (int i = 0; i < 100; ++i) ASSERT_EQ(connect_error(*port), 0) << i;
  auto closed = endpoints.close("127.0.0.1", *port);
  ASSERT_TRUE(closed);
  EXPECT_GT(*closed, 0);
  EXPECT_EQ(connect_error(*port), ECONNREFUSED);
  EXPECT_FALSE(endpoints.close("127.0.0.1", *port));
}

TEST(TcpEndpoints, RejectsAnAddressThatIsNotIpv4) {
  TcpEndpoints endpoints;
  EXPECT_FALSE(endpoints.open("not-an-address"));
}

}  // namespace
}  // namespace cutover::lab
