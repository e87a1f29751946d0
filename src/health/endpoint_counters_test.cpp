// EndpointCounters on the fake clock: down time across periods (and the open one), the last
// change, and flaps in a sliding hour.
#include "health/endpoint_counters.h"

#include <gtest/gtest.h>

namespace cutover::health {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

class EndpointCountersTest : public ::testing::Test {
 protected:
  void change(HealthState from, HealthState to) { counters_.record(from, to, clock_.now(), clock_.wall_now()); }
  base::FakeClock clock_;
  EndpointCounters counters_;
};

TEST_F(EndpointCountersTest, DownTimeAddsUpClosedAndOpenPeriods) {
  EXPECT_EQ(counters_.down_total(clock_.now()).count(), 0);
  EXPECT_FALSE(counters_.last_change());
  change(HealthState::kUnknown, HealthState::kUp);
  clock_.advance(seconds(100));
  change(HealthState::kUp, HealthState::kDown);
  clock_.advance(seconds(30));
  EXPECT_EQ(counters_.down_total(clock_.now()), seconds(30));  // still down: the open period counts
  change(HealthState::kDown, HealthState::kUnknown);            // a stalled checker: not down
  clock_.advance(seconds(50));
  change(HealthState::kUnknown, HealthState::kDown);
  clock_.advance(seconds(5));
  change(HealthState::kDown, HealthState::kUp);
  clock_.advance(seconds(1000));
  EXPECT_EQ(counters_.down_total(clock_.now()), seconds(35));
  EXPECT_EQ(counters_.last_change(), clock_.wall_now() - seconds(1000));
}

TEST_F(EndpointCountersTest, AFlapIsAChangeBetweenUpAndDownAndAgesOutAfterAnHour) {
  change(HealthState::kUnknown, HealthState::kUp);  // the first verdict: no flap
  EXPECT_EQ(counters_.flaps_last_hour(clock_.now()), 0u);
  clock_.advance(minutes(1));
  change(HealthState::kUp, HealthState::kDown);
  clock_.advance(minutes(1));
  change(HealthState::kDown, HealthState::kUnknown);  // through unknown ...
  change(HealthState::kUnknown, HealthState::kUp);    // ... back up: a flap
  EXPECT_EQ(counters_.flaps_last_hour(clock_.now()), 2u);
  change(HealthState::kUp, HealthState::kUnknown);
  change(HealthState::kUnknown, HealthState::kUp);  // up, unknown, up: none
  EXPECT_EQ(counters_.flaps_last_hour(clock_.now()), 2u);
  clock_.advance(minutes(59));  // the first flap is now 60 min old, the second 59
  EXPECT_EQ(counters_.flaps_last_hour(clock_.now()), 2u);
  clock_.advance(seconds(1));  // the first is 60 min 1 s old: out of the hour
  EXPECT_EQ(counters_.flaps_last_hour(clock_.now()), 1u);
  clock_.advance(minutes(1));
  EXPECT_EQ(counters_.flaps_last_hour(clock_.now()), 0u);
}

}  // namespace
}  // namespace cutover::health
