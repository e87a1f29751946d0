// The pool on a FakeClock with real sockets (socketpairs stand in for TCP connections): it
// retires connections to addresses that left the answer, idle ones at once and ones in use
// at their deadline, and never hands out a connection the origin closed.
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "client/connection_pool.h"

namespace cutover::client {
namespace {

using namespace std::chrono_literals;

net::SocketAddress address(const char* text) { return *net::parse_socket_address(text); }

// One end for the pool, the other (the "origin") kept by the test.
struct Pair {
  net::UniqueFd client;
  net::UniqueFd origin;
};
Pair socket_pair() {
  int fds[2];
  EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
  return {net::UniqueFd(fds[0]), net::UniqueFd(fds[1])};
}

const std::string kKey = "www.lab.test:8080";

TEST(ConnectionPool, RetiresIdleConnectionsToAnAddressThatLeftTheAnswer) {
  base::FakeClock clock;
  std::vector<std::string> trace;
  ConnectionPool pool(clock, {}, [&trace](const std::string& line) { trace.push_back(line); });
  auto a = address("127.0.0.2:8080");
  auto b = address("127.0.0.3:8080");
  pool.observe_answer(kKey, {a, b}, 1);
  Pair to_a = socket_pair();
  Pair to_b = socket_pair();
  auto first = pool.adopt(kKey, std::move(to_a.client), a);
  auto second = pool.adopt(kKey, std::move(to_b.client), b);
  EXPECT_EQ(first.id, 1u);
  EXPECT_EQ(second.id, 2u);
  pool.give_back(std::move(first), true);
  pool.give_back(std::move(second), true);
  EXPECT_EQ(pool.idle_count(), 2u);

  pool.observe_answer(kKey, {a, b}, 1);
  pool.observe_answer(kKey, {b, a}, 2);
  EXPECT_EQ(pool.idle_count(), 2u) << "a refresh that keeps both addresses retires nothing";

  pool.observe_answer(kKey, {b}, 3);
  EXPECT_EQ(pool.idle_count(), 1u);
  EXPECT_EQ(pool.retired_count(), 1u);
  char byte;
  EXPECT_EQ(::read(to_a.origin.get(), &byte, 1), 0) << "the connection to 127.0.0.2 was closed at once";

  auto reused = pool.take_idle(kKey);
  ASSERT_TRUE(reused);
  EXPECT_TRUE(same_endpoint(reused->peer, b));
  EXPECT_FALSE(pool.take_idle(kKey)) << "nothing else is idle";
  bool traced = false;
  for (const auto& line : trace) traced = traced || line.rfind("pool retire connection #1 to 127.0.0.2:8080 (idle", 0) == 0;
  EXPECT_TRUE(traced);
}

TEST(ConnectionPool, AConnectionInUseIsRetiredAtItsDeadlineAndNeverReused) {
  base::FakeClock clock;
  PoolOptions options;
  options.drain_deadline = 3s;
  ConnectionPool pool(clock, options);
  auto a = address("127.0.0.2:8080");
  auto b = address("127.0.0.3:8080");
  pool.observe_answer(kKey, {a}, 1);
  Pair to_a = socket_pair();
  auto busy = pool.adopt(kKey, std::move(to_a.client), a);
  EXPECT_FALSE(pool.deadline_of(busy));

  clock.advance(1s);
  pool.observe_answer(kKey, {b}, 2);
  auto deadline = pool.deadline_of(busy);
  ASSERT_TRUE(deadline);
  EXPECT_EQ(*deadline, clock.now() + 3s);

  pool.give_back(std::move(busy), true);
  EXPECT_EQ(pool.idle_count(), 0u) << "a retired connection is closed when its request ends, though reusable";
  char byte;
  EXPECT_EQ(::read(to_a.origin.get(), &byte, 1), 0);
}

TEST(ConnectionPool, DropsIdleConnectionsTheOriginClosedOrThatIdledTooLong) {
  base::FakeClock clock;
  PoolOptions options;
  options.idle_timeout = 10s;
  ConnectionPool pool(clock, options);
  auto a = address("127.0.0.2:8080");
  pool.observe_answer(kKey, {a}, 1);
  Pair closed = socket_pair();
  pool.give_back(pool.adopt(kKey, std::move(closed.client), a), true);
  closed.origin.reset();  // the origin closes its idle connection
  EXPECT_FALSE(pool.take_idle(kKey));

  Pair old = socket_pair();
  pool.give_back(pool.adopt(kKey, std::move(old.client), a), true);
  clock.advance(11s);
  EXPECT_FALSE(pool.take_idle(kKey));

  Pair fresh = socket_pair();
  pool.give_back(pool.adopt(kKey, std::move(fresh.client), a), true);
  clock.advance(9s);
  EXPECT_TRUE(pool.take_idle(kKey));
}

TEST(ConnectionPool, KeysAreSeparate) {
  base::FakeClock clock;
  ConnectionPool pool(clock);
  auto a = address("127.0.0.2:8080");
  pool.observe_answer(kKey, {a}, 1);
  pool.observe_answer("other.lab.test:8080", {a}, 1);
  Pair pair = socket_pair();
  pool.give_back(pool.adopt(kKey, std::move(pair.client), a), true);
  pool.observe_answer("other.lab.test:8080", {address("127.0.0.9:8080")}, 2);
  EXPECT_EQ(pool.idle_count(), 1u) << "another name's change does not touch this name's connections";
  EXPECT_FALSE(pool.take_idle("other.lab.test:8080"));
  EXPECT_TRUE(pool.take_idle(kKey));
}

}  // namespace
}  // namespace cutover::client
