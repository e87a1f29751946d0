#include "net/deadline_io.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace cutover::net {
namespace {

using namespace std::chrono_literals;

// A connected pair of stream sockets, closed at scope end.
struct SocketPair {
  SocketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds.data()), 0); }
  ~SocketPair() {
    for (int fd : fds) {
      if (fd >= 0) ::close(fd);
    }
  }
  void close_end(int i) {
    ::close(fds[i]);
    fds[i] = -1;
  }
  std::array<int, 2> fds{-1, -1};
};

Deadline in(std::chrono::milliseconds wait) { return std::chrono::steady_clock::now() + wait; }

TEST(DeadlineIo, MovesAWholeBufferLargerThanTheSocketBuffer) {
  SocketPair pair;
  std::vector<std::uint8_t> sent(1 << 20);
  for (std::size_t i = 0; i < sent.size(); ++i) sent[i] = static_cast<std::uint8_t>(i * 7);
  std::vector<std::uint8_t> received(sent.size());
  // 1 MiB does not fit the socket buffers: the sender must wait for the reader in between.
  bool read_ok = false;
  std::thread reader([&] { read_ok = receive_exactly(pair.fds[1], received.data(), received.size(), in(10s)); });
  EXPECT_TRUE(send_all(pair.fds[0], sent.data(), sent.size(), in(10s)));
  reader.join();
  EXPECT_TRUE(read_ok);
  EXPECT_EQ(received, sent);
}

TEST(DeadlineIo, ReceiveFailsWhenTheDeadlinePassesBeforeEnoughBytes) {
  SocketPair pair;
  std::uint8_t two[2] = {1, 2};
  ASSERT_TRUE(send_all(pair.fds[0], two, 1, in(1s)));
  EXPECT_FALSE(receive_exactly(pair.fds[1], two, 2, in(50ms)));
  EXPECT_FALSE(wait_ready(pair.fds[1], POLLIN, in(20ms)));
}

TEST(DeadlineIo, ReceiveFailsAtEndOfStream) {
  SocketPair pair;
  pair.close_end(0);
  std::uint8_t byte = 0;
  EXPECT_FALSE(receive_exactly(pair.fds[1], &byte, 1, in(1s)));
}

TEST(DeadlineIo, SendFailsToAClosedPeerWithoutSigpipe) {
  SocketPair pair;
  pair.close_end(1);
  std::uint8_t byte = 0;
  EXPECT_FALSE(send_all(pair.fds[0], &byte, 1, in(1s)));
}

TEST(DeadlineIo, AnExpiredDeadlineFailsAtOnce) {
  SocketPair pair;
  std::uint8_t byte = 0;
  ASSERT_TRUE(send_all(pair.fds[0], &byte, 1, in(1s)));
  EXPECT_FALSE(wait_ready(pair.fds[1], POLLIN, std::chrono::steady_clock::now() - 1ms));
}

}  // namespace
}  // namespace cutover::net
