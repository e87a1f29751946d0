// ZoneTimers on a fake clock: refresh, retry, expire, NOTIFY, zones without a copy.
#include "replication/secondary/zone_timers.h"

#include <gtest/gtest.h>

namespace cutover::replication {
namespace {

using std::chrono::seconds;

dns::SoaFields soa_timers(std::uint32_t refresh, std::uint32_t retry, std::uint32_t expire) {
  dns::SoaFields soa;
  soa.serial = 1;
  soa.refresh = refresh;
  soa.retry = retry;
  soa.expire = expire;
  return soa;
}

TEST(ZoneTimersTest, WithoutCopyIsUnusableAndRetriesUntilATransfer) {
  base::FakeClock clock;
  auto timers = ZoneTimers::without_copy(clock.now());
  EXPECT_TRUE(timers.due(clock.now()));
  EXPECT_TRUE(timers.unusable(clock.now()));
  timers.failed(clock.now());
  EXPECT_EQ(timers.next_check(), clock.now() + ZoneTimers::kInitialRetry);
  clock.advance(seconds(5));
  timers.succeeded(clock.now(), soa_timers(60, 10, 300));
  EXPECT_FALSE(timers.unusable(clock.now()));
  EXPECT_EQ(timers.next_check(), clock.now() + seconds(60));
}

TEST(ZoneTimersTest, RefreshThenRetryThenExpire) {
  base::FakeClock clock;
  auto timers = ZoneTimers::with_copy(clock.now(), soa_timers(60, 10, 100));
  timers.succeeded(clock.now(), soa_timers(60, 10, 100));
  clock.advance(seconds(59));
  EXPECT_FALSE(timers.due(clock.now()));
  clock.advance(seconds(1));
  EXPECT_TRUE(timers.due(clock.now()));
  timers.failed(clock.now());  // t = 60: the primary does not answer
  EXPECT_EQ(timers.next_check(), clock.now() + seconds(10));
  clock.advance(seconds(39));  // t = 99
  EXPECT_FALSE(timers.unusable(clock.now()));
  clock.advance(seconds(1));  // t = 100: EXPIRE since the last success
  EXPECT_TRUE(timers.unusable(clock.now()));
  timers.succeeded(clock.now(), soa_timers(60, 10, 100));
  EXPECT_FALSE(timers.unusable(clock.now()));
}

TEST(ZoneTimersTest, NotifyMakesTheCheckDueNow) {
  base::FakeClock clock;
  auto timers = ZoneTimers::with_copy(clock.now(), soa_timers(3600, 600, 86400));
  timers.succeeded(clock.now(), soa_timers(3600, 600, 86400));
  clock.advance(seconds(5));
  EXPECT_FALSE(timers.due(clock.now()));
  timers.notified(clock.now());
  EXPECT_TRUE(timers.due(clock.now()));
}

TEST(ZoneTimersTest, ZeroTimersAreRaisedToTheMinimum) {
  base::FakeClock clock;
  auto timers = ZoneTimers::with_copy(clock.now(), soa_timers(0, 0, 0));
  timers.succeeded(clock.now(), soa_timers(0, 0, 0));
  EXPECT_EQ(timers.next_check(), clock.now() + ZoneTimers::kMinimumTimer);
  EXPECT_FALSE(timers.unusable(clock.now()));
}

}  // namespace
}  // namespace cutover::replication
