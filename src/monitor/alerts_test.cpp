// The alert state machine (alerts.h) driven by a fake clock: pending, firing once,
// resolved once, holds, disabled rules.
#include "monitor/alerts.h"

#include <gtest/gtest.h>

namespace cutover::monitor {
namespace {

using std::chrono::seconds;

AlertRules rules_with_mismatch_hold(std::chrono::milliseconds hold) {
  AlertRules rules;
  rules.mismatch.hold = hold;
  rules.authoritative_silent.hold = seconds(0);
  return rules;
}

const Condition kMismatch{kRuleMismatch, "www.example.test. A", "reference 'NOERROR 192.0.2.1'"};

TEST(AlertEngine, FiresOnceAfterTheHoldAndResolvesOnce) {
  base::FakeClock clock;
  AlertEngine engine(rules_with_mismatch_hold(seconds(30)));
  EXPECT_TRUE(engine.update({kMismatch}, clock.now()).empty());  // pending
  ASSERT_EQ(engine.active(clock.now()).size(), 1U);
  EXPECT_FALSE(engine.active(clock.now())[0].firing);
  clock.advance(seconds(29));
  EXPECT_TRUE(engine.update({kMismatch}, clock.now()).empty());
  clock.advance(seconds(1));
  auto events = engine.update({kMismatch}, clock.now());
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].state, "firing");
  EXPECT_EQ(events[0].rule, "mismatch");
  EXPECT_EQ(events[0].subject, "www.example.test. A");
  EXPECT_DOUBLE_EQ(events[0].held_seconds, 30);
  clock.advance(seconds(10));
  EXPECT_TRUE(engine.update({kMismatch}, clock.now()).empty());  // still firing: no second event
  EXPECT_TRUE(engine.active(clock.now())[0].firing);
  clock.advance(seconds(10));
  events = engine.update({}, clock.now());
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].state, "resolved");
  EXPECT_DOUBLE_EQ(events[0].held_seconds, 50);
  EXPECT_TRUE(engine.update({}, clock.now()).empty());
  EXPECT_TRUE(engine.active(clock.now()).empty());
  EXPECT_EQ(engine.transitions(), 2U);
}

TEST(AlertEngine, AConditionGoneBeforeTheHoldNeverFires) {
  base::FakeClock clock;
  AlertEngine engine(rules_with_mismatch_hold(seconds(30)));
  engine.update({kMismatch}, clock.now());
  clock.advance(seconds(20));
  EXPECT_TRUE(engine.update({}, clock.now()).empty());
  clock.advance(seconds(20));
  // Holding again restarts the hold from now, not from the first time.
  EXPECT_TRUE(engine.update({kMismatch}, clock.now()).empty());
  EXPECT_EQ(engine.transitions(), 0U);
}

TEST(AlertEngine, ZeroHoldFiresInTheFirstRound) {
  base::FakeClock clock;
  AlertEngine engine(AlertRules{});
  Condition nxdomain{kRuleNxdomain, "www.example.test. A", "NXDOMAIN from 127.0.0.1:53"};
  auto events = engine.update({nxdomain}, clock.now());
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].state, "firing");
  EXPECT_EQ(events[0].message, "NXDOMAIN from 127.0.0.1:53");
}

TEST(AlertEngine, SubjectsAndRulesAreIndependent) {
  base::FakeClock clock;
  AlertEngine engine(rules_with_mismatch_hold(seconds(0)));
  Condition other{kRuleMismatch, "mail.example.test. MX", "x"};
  Condition silent{kRuleAuthoritativeSilent, "127.0.0.1:5300", "no reply"};
  EXPECT_EQ(engine.update({kMismatch, other, silent}, clock.now()).size(), 3U);
  clock.advance(seconds(5));
  auto events = engine.update({kMismatch, silent}, clock.now());
  ASSERT_EQ(events.size(), 1U);
  EXPECT_EQ(events[0].subject, "mail.example.test. MX");
  EXPECT_EQ(events[0].state, "resolved");
  EXPECT_EQ(engine.active(clock.now()).size(), 2U);
}

TEST(AlertEngine, DisabledRulesNeverTrack) {
  base::FakeClock clock;
  AlertRules rules;
  rules.nxdomain.enabled = false;
  AlertEngine engine(rules);
  EXPECT_TRUE(engine.update({{kRuleNxdomain, "a.test. A", "x"}}, clock.now()).empty());
  EXPECT_TRUE(engine.active(clock.now()).empty());
}

TEST(AlertEngine, ADuplicateConditionCountsOnce) {
  base::FakeClock clock;
  AlertEngine engine(rules_with_mismatch_hold(seconds(0)));
  EXPECT_EQ(engine.update({kMismatch, kMismatch}, clock.now()).size(), 1U);
}

}  // namespace
}  // namespace cutover::monitor
