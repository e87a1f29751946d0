// The eviction order and the idle timeout under load, driven by a fake clock: which
// connection a newcomer displaces, which one expires next, and how the timeout falls as the
// slots fill (net/tcp_eviction.h has the state chart).
#include "net/tcp_eviction.h"

#include <gtest/gtest.h>

namespace cutover::net {
namespace {

using std::chrono::milliseconds;

TEST(EvictionOrder, EmptyHasNoVictimAndNothingToExpire) {
  EvictionOrder order;
  EXPECT_FALSE(order.victim().has_value());
  EXPECT_FALSE(order.stalest().has_value());
  EXPECT_EQ(order.size(), 0u);
}

TEST(EvictionOrder, StalledConnectionsGoOldestFirst) {
  base::FakeClock clock;
  EvictionOrder order;
  for (int id = 1; id <= 3; ++id) {
    order.add(id, clock.now());
    clock.advance(milliseconds(10));
  }
  EXPECT_EQ(order.victim(), 1);
  // Connection 1 sends a byte (still half a message): it becomes the newest stalled one.
  order.touch(1, ConnectionState::kWaiting, clock.now());
  EXPECT_EQ(order.victim(), 2);
  order.remove(2);
  EXPECT_EQ(order.victim(), 3);
  order.remove(3);
  EXPECT_EQ(order.victim(), 1);
}

TEST(EvictionOrder, AStalledConnectionGoesBeforeAnOlderIdleOne) {
  base::FakeClock clock;
  EvictionOrder order;
  order.add(1, clock.now());
  // 1 is answered and keeps its connection open for more queries (RFC 7766 §6.2.1).
  order.touch(1, ConnectionState::kIdle, clock.now());
  clock.advance(milliseconds(500));
  order.add(2, clock.now());  // newer, but it has sent nothing yet
  EXPECT_EQ(order.state_of(1), ConnectionState::kIdle);
  EXPECT_EQ(order.state_of(2), ConnectionState::kWaiting);
  EXPECT_EQ(order.victim(), 2);
  order.remove(2);
  EXPECT_EQ(order.victim(), 1);  // with no stalled one left, the idle one goes
}

TEST(EvictionOrder, IdleConnectionsGoOldestFirstAndANewQueryMakesOneWaitingAgain) {
  base::FakeClock clock;
  EvictionOrder order;
  for (int id = 1; id <= 2; ++id) {
    order.add(id, clock.now());
    order.touch(id, ConnectionState::kIdle, clock.now());
    clock.advance(milliseconds(10));
  }
  EXPECT_EQ(order.victim(), 1);
  // 1 starts a query and stalls in it: it leaves the idle list for the stalled one.
  order.touch(1, ConnectionState::kWaiting, clock.now());
  EXPECT_EQ(order.state_of(1), ConnectionState::kWaiting);
  EXPECT_EQ(order.victim(), 1);
  order.touch(1, ConnectionState::kIdle, clock.now());
  EXPECT_EQ(order.victim(), 2);
}

TEST(EvictionOrder, StalestIsTheOldestActivityOfEitherState) {
  base::FakeClock clock;
  EvictionOrder order;
  auto start = clock.now();
  order.add(1, clock.now());
  order.touch(1, ConnectionState::kIdle, clock.now());  // idle since start
  clock.advance(milliseconds(100));
  order.add(2, clock.now());  // waiting since start + 100 ms
  ASSERT_TRUE(order.stalest().has_value());
  EXPECT_EQ(order.stalest()->id, 1);
  EXPECT_EQ(order.stalest()->last_activity, start);
  clock.advance(milliseconds(100));
  order.touch(1, ConnectionState::kIdle, clock.now());
  EXPECT_EQ(order.stalest()->id, 2);
  EXPECT_EQ(order.stalest()->last_activity, start + milliseconds(100));
}

TEST(EvictionOrder, UnknownIdsAreIgnored) {
  base::FakeClock clock;
  EvictionOrder order;
  order.add(7, clock.now());
  order.touch(8, ConnectionState::kIdle, clock.now());
  order.remove(9);
  EXPECT_EQ(order.size(), 1u);
  EXPECT_EQ(order.victim(), 7);
  EXPECT_FALSE(order.state_of(8).has_value());
}

TEST(EvictionOrder, ManyConnectionsKeepTheirOrderThroughChurn) {
  base::FakeClock clock;
  EvictionOrder order;
  for (int id = 0; id < 1000; ++id) {
    order.add(id, clock.now());
    clock.advance(milliseconds(1));
  }
  // Every even connection gets an answer: the odd ones (never answered) go first, in order.
  for (int id = 0; id < 1000; id += 2) {
    order.touch(id, ConnectionState::kIdle, clock.now());
    clock.advance(milliseconds(1));
  }
  for (int expected = 1; expected < 1000; expected += 2) {
    ASSERT_EQ(order.victim(), expected);
    order.remove(expected);
  }
  for (int expected = 0; expected < 1000; expected += 2) {
    ASSERT_EQ(order.victim(), expected);
    order.remove(expected);
  }
  EXPECT_EQ(order.size(), 0u);
}

struct LoadCase {
  std::size_t open;
  long long expected_ms;
};

TEST(IdleTimeoutUnderLoad, FullUpToHalfThenFallsLinearlyToTheBusyTimeout) {
  const milliseconds idle(10'000);
  const milliseconds busy(200);
  const LoadCase cases[] = {
      {0, 10'000}, {1, 10'000}, {128, 10'000},  // up to half of 256: the configured timeout
      {129, 9'924},                             // 2/256 of the way down: 10000 - 9800 * 2/256
      {192, 5'100},                             // three quarters: halfway down
      {255, 277},   {256, 200},                 // full: the busy timeout
      {300, 200},                               // more than the limit (a racing count): still the floor
  };
  for (const auto& c : cases) {
    EXPECT_EQ(idle_timeout_under_load(idle, busy, c.open, 256).count(), c.expected_ms) << "open " << c.open;
  }
}

TEST(IdleTimeoutUnderLoad, TheBusyTimeoutNeverExceedsTheIdleOne) {
  EXPECT_EQ(idle_timeout_under_load(milliseconds(50), milliseconds(200), 256, 256), milliseconds(50));
  EXPECT_EQ(idle_timeout_under_load(milliseconds(50), milliseconds(200), 10, 256), milliseconds(50));
  EXPECT_EQ(idle_timeout_under_load(milliseconds(50), milliseconds(200), 1, 1), milliseconds(50));
}

TEST(IdleTimeoutUnderLoad, ASingleSlotIsFullAtOne) {
  EXPECT_EQ(idle_timeout_under_load(milliseconds(1000), milliseconds(100), 0, 1), milliseconds(1000));
  EXPECT_EQ(idle_timeout_under_load(milliseconds(1000), milliseconds(100), 1, 1), milliseconds(100));
}

}  // namespace
}  // namespace cutover::net
