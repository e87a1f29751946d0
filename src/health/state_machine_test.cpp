// Unit tests of the endpoint state machine, driven by the fake clock: every transition of
// the chart, flapping, overrides, unknown at startup, checker stalls and the quorum input.
#include "health/state_machine.h"

#include <gtest/gtest.h>

namespace cutover::health {
namespace {

using std::chrono::seconds;
constexpr ProbeOutcome kPass = ProbeOutcome::kPass;
constexpr ProbeOutcome kFail = ProbeOutcome::kFail;
constexpr ProbeOutcome kError = ProbeOutcome::kError;

class StateMachineTest : public ::testing::Test {
 protected:
  static Thresholds thresholds(int fall = 3, int rise = 2) {
    Thresholds t;
    t.fall = fall;
    t.rise = rise;
    t.interval = seconds(10);
    t.timeout = seconds(2);
    return t;
  }
  // One probe per interval, like the checker's schedule.
  bool probe(EndpointStateMachine& machine, ProbeOutcome outcome, const std::string& checker = kLocalChecker) {
    clock_.advance(seconds(10));
    return machine.report(checker, outcome, clock_.now());
  }
  void probe_n(EndpointStateMachine& machine, ProbeOutcome outcome, int count) {
    for (int i = 0; i < count; ++i) probe(machine, outcome);
  }
  static constexpr const char* kLocalChecker = "local";
  base::FakeClock clock_;
};

TEST_F(StateMachineTest, StartsUnknownAndServing) {
  EndpointStateMachine machine(thresholds());
  EXPECT_EQ(machine.health(), HealthState::kUnknown);
  EXPECT_EQ(machine.effective(), HealthState::kUnknown);
  EXPECT_TRUE(machine.serving());
  EXPECT_FALSE(machine.last_transition().has_value());
}

TEST_F(StateMachineTest, WaitForFirstCheckDoesNotServeUnknown) {
  Thresholds t = thresholds();
  t.wait_for_first_check = true;
  EndpointStateMachine machine(t);
  EXPECT_FALSE(machine.serving());
  EXPECT_TRUE(probe(machine, kPass));
  EXPECT_TRUE(machine.serving());
}

TEST_F(StateMachineTest, WaitForFirstCheckFirstFailureDecidesDown) {
  Thresholds t = thresholds();
  t.wait_for_first_check = true;
  EndpointStateMachine machine(t);
  probe(machine, kFail);
  EXPECT_EQ(machine.health(), HealthState::kDown);
  EXPECT_FALSE(machine.serving());
}

TEST_F(StateMachineTest, UnknownToUpOnFirstPass) {
  EndpointStateMachine machine(thresholds());
  EXPECT_TRUE(probe(machine, kPass));
  EXPECT_EQ(machine.health(), HealthState::kUp);
  EXPECT_EQ(machine.last_transition(), clock_.now());
}

TEST_F(StateMachineTest, UnknownToDownAfterFallFailures) {
  EndpointStateMachine machine(thresholds(3));
  probe_n(machine, kFail, 2);
  EXPECT_EQ(machine.health(), HealthState::kUnknown);
  EXPECT_TRUE(machine.serving());
  probe(machine, kFail);
  EXPECT_EQ(machine.health(), HealthState::kDown);
  EXPECT_FALSE(machine.serving());
}

TEST_F(StateMachineTest, UpToDownNeedsFallConsecutiveFailures) {
  EndpointStateMachine machine(thresholds(3));
  probe(machine, kPass);
  probe_n(machine, kFail, 2);
  EXPECT_EQ(machine.health(), HealthState::kUp);
  probe(machine, kPass);  // breaks the run
  probe_n(machine, kFail, 2);
  EXPECT_EQ(machine.health(), HealthState::kUp);
  probe(machine, kFail);
  EXPECT_EQ(machine.health(), HealthState::kDown);
}

TEST_F(StateMachineTest, DownToUpNeedsRiseConsecutivePasses) {
  EndpointStateMachine machine(thresholds(1, 3));
  probe(machine, kFail);
  ASSERT_EQ(machine.health(), HealthState::kDown);
  probe_n(machine, kPass, 2);
  EXPECT_EQ(machine.health(), HealthState::kDown);
  probe(machine, kFail);
  probe_n(machine, kPass, 2);
  EXPECT_EQ(machine.health(), HealthState::kDown);
  probe(machine, kPass);
  EXPECT_EQ(machine.health(), HealthState::kUp);
}

TEST_F(StateMachineTest, FlappingEndpointNeverChangesStateBelowThresholds) {
  EndpointStateMachine machine(thresholds(2, 2));
  probe(machine, kPass);
  for (int i = 0; i < 20; ++i) {
    probe(machine, i % 2 == 0 ? kFail : kPass);
    EXPECT_EQ(machine.health(), HealthState::kUp) << "probe " << i;
  }
}

TEST_F(StateMachineTest, FlappingAroundDownStaysDown) {
  EndpointStateMachine machine(thresholds(1, 2));
  probe(machine, kFail);
  for (int i = 0; i < 20; ++i) {
    probe(machine, i % 2 == 0 ? kPass : kFail);
    EXPECT_EQ(machine.health(), HealthState::kDown) << "probe " << i;
  }
}

TEST_F(StateMachineTest, ProbeThatCouldNotRunMakesUnknownNotDown) {
  EndpointStateMachine machine(thresholds(1, 1));
  probe(machine, kFail);
  ASSERT_EQ(machine.health(), HealthState::kDown);
  EXPECT_TRUE(probe(machine, kError));
  EXPECT_EQ(machine.health(), HealthState::kUnknown);
  EXPECT_TRUE(machine.serving());
  EndpointStateMachine up(thresholds());
  probe(up, kPass);
  probe_n(up, kError, 5);
  EXPECT_EQ(up.health(), HealthState::kUnknown);
}

TEST_F(StateMachineTest, StalledCheckerBecomesUnknownAfterThreeIntervals) {
  EndpointStateMachine machine(thresholds(1, 1));
  probe(machine, kFail);
  ASSERT_EQ(machine.health(), HealthState::kDown);
  clock_.advance(seconds(30));
  EXPECT_FALSE(machine.tick(clock_.now()));  // exactly 3 intervals: not yet
  clock_.advance(seconds(1));
  EXPECT_TRUE(machine.tick(clock_.now()));
  EXPECT_EQ(machine.health(), HealthState::kUnknown);
  EXPECT_TRUE(machine.serving());
  EXPECT_FALSE(machine.tick(clock_.now()));  // nothing more to change
  EXPECT_TRUE(probe(machine, kFail));        // the checker came back
  EXPECT_EQ(machine.health(), HealthState::kDown);
}

TEST_F(StateMachineTest, DrainOverridesUpAndSurvivesProbes) {
  EndpointStateMachine machine(thresholds());
  probe(machine, kPass);
  EXPECT_TRUE(machine.set_override(Override::kDrain, clock_.now()));
  EXPECT_EQ(machine.effective(), HealthState::kDown);
  EXPECT_EQ(machine.health(), HealthState::kUp);
  EXPECT_FALSE(machine.serving());
  probe_n(machine, kPass, 5);
  EXPECT_EQ(machine.effective(), HealthState::kDown);
  EXPECT_TRUE(machine.set_override(Override::kNone, clock_.now()));
  EXPECT_EQ(machine.effective(), HealthState::kUp);
}

TEST_F(StateMachineTest, ForceUpOverridesDown) {
  EndpointStateMachine machine(thresholds(1));
  probe(machine, kFail);
  EXPECT_TRUE(machine.set_override(Override::kForceUp, clock_.now()));
  EXPECT_EQ(machine.effective(), HealthState::kUp);
  EXPECT_TRUE(machine.serving());
  EXPECT_FALSE(machine.set_override(Override::kForceUp, clock_.now()));  // no change
}

TEST_F(StateMachineTest, SuspicionDeadlineCountsRemainingFailures) {
  EndpointStateMachine machine(thresholds(3));
  probe(machine, kPass);
  EXPECT_FALSE(machine.suspicion_deadline().has_value());
  EXPECT_TRUE(probe(machine, kFail));  // suspicion changes what answers may carry
  // Two more failures, one interval apart, from a probe that started up to T earlier.
  EXPECT_EQ(machine.suspicion_deadline(), clock_.now() + seconds(20) - seconds(2));
  probe(machine, kFail);
  EXPECT_EQ(machine.suspicion_deadline(), clock_.now() + seconds(10) - seconds(2));
  probe(machine, kFail);
  EXPECT_FALSE(machine.suspicion_deadline().has_value());  // down: no longer suspected
  EXPECT_EQ(machine.health(), HealthState::kDown);
}

TEST_F(StateMachineTest, QuorumNeedsKCheckersToAgree) {
  Thresholds t = thresholds(1, 1);
  t.quorum = 2;
  EndpointStateMachine machine(t);
  probe(machine, kPass, "a");
  probe(machine, kPass, "b");
  probe(machine, kPass, "c");
  EXPECT_EQ(machine.health(), HealthState::kUp);
  probe(machine, kFail, "a");
  EXPECT_EQ(machine.health(), HealthState::kUp);  // one dissenting checker is not enough
  probe(machine, kFail, "b");
  EXPECT_EQ(machine.health(), HealthState::kDown);
  EXPECT_EQ(machine.checkers().size(), 3u);
  EXPECT_EQ(machine.checkers().at("c").state, HealthState::kUp);
}

// Remote vantages (docs/cluster.md): quorum 2 of three, an expired verdict that is not
// down, the last health held while the quorum is lost, and silence turning a vantage
// unknown after three intervals (fake clock).
TEST_F(StateMachineTest, RemoteVantagesByQuorumHoldTheLastVerdictWhenLost) {
  Thresholds t = thresholds(1, 1);
  t.quorum_rule = QuorumRule{QuorumRule::Kind::kQuorum, 2, 0};
  t.interval = seconds(1);
  EndpointStateMachine machine(t);
  EXPECT_EQ(machine.health(), HealthState::kUnknown);
  EXPECT_TRUE(machine.quorum_lost());  // nobody has reported yet
  machine.set_vantage("fra", HealthState::kUp, clock_.now());
  machine.set_vantage("ams", HealthState::kUp, clock_.now());
  machine.set_vantage("lon", HealthState::kUp, clock_.now());
  EXPECT_EQ(machine.health(), HealthState::kUp);
  EXPECT_FALSE(machine.quorum_lost());
  EXPECT_FALSE(machine.set_vantage("fra", HealthState::kDown, clock_.now()));  // one dissenter: no change
  EXPECT_EQ(machine.health(), HealthState::kUp);
  EXPECT_TRUE(machine.set_vantage("ams", HealthState::kDown, clock_.now()));
  EXPECT_EQ(machine.health(), HealthState::kDown);
  EXPECT_FALSE(machine.serving());
  // One verdict expires: ams down, lon up, no two agree: down is held, the quorum is not lost.
  EXPECT_FALSE(machine.remove_vantage("fra", clock_.now()));
  EXPECT_FALSE(machine.quorum_lost());
  EXPECT_EQ(machine.health(), HealthState::kDown);
  // A second: one vantage left, fewer than 2: still down, and the quorum is lost.
  EXPECT_TRUE(machine.remove_vantage("lon", clock_.now()));
  EXPECT_TRUE(machine.quorum_lost());
  EXPECT_EQ(machine.health(), HealthState::kDown);
  EXPECT_EQ(machine.checkers().size(), 1u);
  // The quorum comes back up.
  machine.set_vantage("fra", HealthState::kUp, clock_.now());
  machine.set_vantage("ams", HealthState::kUp, clock_.now());
  EXPECT_EQ(machine.health(), HealthState::kUp);
  EXPECT_FALSE(machine.quorum_lost());
  // Silence: after 3 intervals (3 s here) every remote vantage is unknown; up is held.
  clock_.advance(seconds(2));
  EXPECT_FALSE(machine.tick(clock_.now()));
  clock_.advance(seconds(2));
  EXPECT_TRUE(machine.tick(clock_.now()));
  EXPECT_EQ(machine.checkers().at("fra").state, HealthState::kUnknown);
  EXPECT_EQ(machine.checkers().at("ams").state, HealthState::kUnknown);
  EXPECT_TRUE(machine.quorum_lost());
  EXPECT_EQ(machine.health(), HealthState::kUp);
  EXPECT_TRUE(machine.serving());
}

}  // namespace
}  // namespace cutover::health
