// Composite health on the fake clock: an endpoint with several checks, each with its own
// interval and rise/fall, combined per vantage by all / any / at-least-K, an inverted check,
// a stalled check, the suspicion deadline of a composite, and a reload that changes the
// checks. The combination of every three-state triple is combine_test's.
#include <array>
#include <string>

#include <gtest/gtest.h>

#include "health/state_machine.h"

namespace cutover::health {
namespace {

using std::chrono::seconds;
constexpr ProbeOutcome kPass = ProbeOutcome::kPass;
constexpr ProbeOutcome kFail = ProbeOutcome::kFail;
constexpr ProbeOutcome kError = ProbeOutcome::kError;

// Check 0: fall 2, rise 2, every 10 s (a tcp probe); check 1: fall 1, rise 1, every 1 s (a
// signal); check 2 likewise.
Thresholds composite(Combine combine, std::size_t checks = 2, bool invert_last = false) {
  Thresholds t;
  t.combine = combine;
  t.checks.push_back(CheckRule{2, 2, seconds(10), seconds(2), false});
  for (std::size_t i = 1; i < checks; ++i) t.checks.push_back(CheckRule{1, 1, seconds(1), std::chrono::milliseconds(100), false});
  if (invert_last) t.checks.back().invert = true;
  return t;
}

class CompositeTest : public ::testing::Test {
 protected:
  bool report(EndpointStateMachine& machine, std::size_t check, ProbeOutcome outcome) {
    clock_.advance(seconds(1));
    return machine.report("local", check, outcome, clock_.now());
  }
  base::FakeClock clock_;
};

TEST_F(CompositeTest, AllIsDownWhenOneCheckIsDownAndUpWhenEveryCheckIsUp) {
  EndpointStateMachine machine(composite({CombineKind::kAll, 1}));
  report(machine, 0, kPass);
  EXPECT_EQ(machine.health(), HealthState::kUnknown);  // check 1 has no verdict yet
  EXPECT_TRUE(machine.serving());                      // unknown serves
  report(machine, 1, kPass);
  EXPECT_EQ(machine.health(), HealthState::kUp);
  EXPECT_TRUE(report(machine, 1, kFail));  // fall 1: the signal alone takes the endpoint down
  EXPECT_EQ(machine.health(), HealthState::kDown);
  EXPECT_FALSE(machine.serving());
  report(machine, 0, kFail);
  report(machine, 1, kPass);  // the signal is back, but check 0 is suspect only (1 of fall 2)
  EXPECT_EQ(machine.health(), HealthState::kUp);
  report(machine, 0, kFail);
  EXPECT_EQ(machine.health(), HealthState::kDown);
  EXPECT_EQ(machine.checkers().at("local").checks.size(), 2u);
  EXPECT_EQ(machine.checkers().at("local").checks[0].state, HealthState::kDown);
  EXPECT_EQ(machine.checkers().at("local").checks[1].state, HealthState::kUp);
}

TEST_F(CompositeTest, AnyIsUpWhileOneCheckPassesAndDownWhenAllFail) {
  EndpointStateMachine machine(composite({CombineKind::kAny, 1}));
  report(machine, 1, kPass);
  EXPECT_EQ(machine.health(), HealthState::kUp);  // one up is enough, check 0 still unknown
  report(machine, 0, kFail);
  report(machine, 0, kFail);
  EXPECT_EQ(machine.health(), HealthState::kUp);
  report(machine, 1, kFail);
  EXPECT_EQ(machine.health(), HealthState::kDown);
  report(machine, 0, kPass);  // rise 2: one pass is not yet up
  EXPECT_EQ(machine.health(), HealthState::kDown);
  report(machine, 0, kPass);
  EXPECT_EQ(machine.health(), HealthState::kUp);
}

TEST_F(CompositeTest, AtLeastKCountsUpChecksAndIsDownOnceKCannotBeReached) {
  EndpointStateMachine machine(composite({CombineKind::kAtLeast, 2}, 3));
  report(machine, 1, kPass);
  EXPECT_EQ(machine.health(), HealthState::kUnknown);
  report(machine, 2, kPass);
  EXPECT_EQ(machine.health(), HealthState::kUp);
  report(machine, 1, kFail);
  EXPECT_EQ(machine.health(), HealthState::kUnknown);  // one up, one down, check 0 unknown: 2 still possible
  report(machine, 2, kFail);
  EXPECT_EQ(machine.health(), HealthState::kDown);  // two of three down: at most one can be up
  report(machine, 0, kPass);
  EXPECT_EQ(machine.health(), HealthState::kDown);
  report(machine, 2, kPass);
  EXPECT_EQ(machine.health(), HealthState::kUp);
}

TEST_F(CompositeTest, AnInvertedCheckSwapsPassAndFailButNotError) {
  // A maintenance flag: the signal "maint" is up (passes) while the endpoint must be out.
  EndpointStateMachine machine(composite({CombineKind::kAll, 1}, 2, true));
  report(machine, 0, kPass);
  report(machine, 1, kFail);  // flag down: inverted, a pass
  EXPECT_EQ(machine.health(), HealthState::kUp);
  report(machine, 1, kPass);  // flag up: the endpoint goes down
  EXPECT_EQ(machine.health(), HealthState::kDown);
  report(machine, 1, kError);  // the flag cannot be read: unknown, not up
  EXPECT_EQ(machine.checkers().at("local").checks[1].state, HealthState::kUnknown);
  EXPECT_EQ(machine.health(), HealthState::kUnknown);
  EXPECT_TRUE(machine.serving());
}

TEST_F(CompositeTest, EachCheckStallsOnItsOwnInterval) {
  EndpointStateMachine machine(composite({CombineKind::kAll, 1}));
  report(machine, 0, kPass);
  report(machine, 1, kPass);
  ASSERT_EQ(machine.health(), HealthState::kUp);
  // 4 s without a report: check 1 (every 1 s, stalled after 3 s) is; check 0 (every 10 s) is not.
  clock_.advance(seconds(4));
  EXPECT_TRUE(machine.tick(clock_.now()));
  EXPECT_EQ(machine.checkers().at("local").checks[1].state, HealthState::kUnknown);
  EXPECT_EQ(machine.checkers().at("local").checks[0].state, HealthState::kUp);
  EXPECT_EQ(machine.health(), HealthState::kUnknown);
}

TEST_F(CompositeTest, SuspicionComesOnlyFromACheckThatWouldTakeTheEndpointDown) {
  EndpointStateMachine any(composite({CombineKind::kAny, 1}));
  report(any, 0, kPass);
  report(any, 1, kPass);
  report(any, 0, kFail);  // check 0 suspect, but check 1 keeps an `any` endpoint up
  EXPECT_FALSE(any.suspicion_deadline().has_value());
  EndpointStateMachine all(composite({CombineKind::kAll, 1}));
  report(all, 0, kPass);
  report(all, 1, kPass);
  report(all, 0, kFail);
  // One more failure of check 0 (I = 10 s, T = 2 s) takes an `all` endpoint down.
  EXPECT_EQ(all.suspicion_deadline(), clock_.now() + seconds(10) - seconds(2));
}

TEST_F(CompositeTest, AReloadKeepsTheStatesOfTheChecksThatRemain) {
  EndpointStateMachine machine(composite({CombineKind::kAll, 1}, 3));
  report(machine, 0, kPass);
  report(machine, 1, kPass);
  report(machine, 2, kFail);
  EXPECT_EQ(machine.health(), HealthState::kDown);
  machine.reconfigure(composite({CombineKind::kAll, 1}, 2));  // check 2 removed
  EXPECT_EQ(machine.health(), HealthState::kUp);
  EXPECT_FALSE(report(machine, 2, kFail));  // a late report of the removed check changes nothing
  Thresholds single;
  single.fall = 1;
  machine.reconfigure(single);  // back to one check: check 0's state stays
  EXPECT_EQ(machine.health(), HealthState::kUp);
  EXPECT_TRUE(machine.report("local", kFail, clock_.now()));
  EXPECT_EQ(machine.health(), HealthState::kDown);
}

TEST_F(CompositeTest, VantagesCombineTheirChecksBeforeTheQuorum) {
  Thresholds t = composite({CombineKind::kAll, 1});
  t.quorum = 2;
  EndpointStateMachine machine(t);
  for (const char* vantage : {"a", "b", "c"}) {
    for (std::size_t check : {0u, 1u}) machine.report(vantage, check, kPass, clock_.now());
  }
  EXPECT_EQ(machine.health(), HealthState::kUp);
  machine.report("a", 1, kFail, clock_.now());  // vantage a down (all), b and c up
  EXPECT_EQ(machine.health(), HealthState::kUp);
  machine.report("b", 1, kFail, clock_.now());
  EXPECT_EQ(machine.health(), HealthState::kDown);  // two vantages down: quorum
}

// Every rule (all, any, at-least-2, at-least-3) with every inversion mask of three checks
// and every last outcome of each (pass, fail, error): 4 x 8 x 27 cases through the state
// machine on the fake clock (F = R = 1, so one report is a verdict). A check's state is the
// outcome after its inversion (pass up, fail down, an error unknown whatever the inversion);
// the endpoint's is then combine_states' verdict, whose table combine_test writes out by
// hand. This checks the machine's plumbing (per-check index, inversion, combining) for
// every input, where the tests above follow single histories.
TEST_F(CompositeTest, EveryRuleWithEveryInversionAndEveryOutcome) {
  const ProbeOutcome outcomes[] = {kPass, kFail, kError};
  const Combine rules[] = {{CombineKind::kAll, 1}, {CombineKind::kAny, 1}, {CombineKind::kAtLeast, 2},
                           {CombineKind::kAtLeast, 3}};
  auto state_after = [](ProbeOutcome outcome, bool invert) {
    if (outcome == kError) return HealthState::kUnknown;
    return (outcome == kPass) != invert ? HealthState::kUp : HealthState::kDown;
  };
  std::size_t cases = 0;
  for (const Combine& rule : rules) {
    for (unsigned mask = 0; mask < 8; ++mask) {
      for (std::size_t combination = 0; combination < 27; ++combination) {
        Thresholds t;
        t.combine = rule;
        for (unsigned i = 0; i < 3; ++i) t.checks.push_back(CheckRule{1, 1, seconds(10), seconds(2), (mask >> i & 1u) != 0});
        EndpointStateMachine machine(t);
        std::array<HealthState, 3> expected_states{};
        std::string which = rule.to_text() + " invert-mask " + std::to_string(mask) + ":";
        for (std::size_t i = 0, rest = combination; i < 3; ++i, rest /= 3) {
          ProbeOutcome outcome = outcomes[rest % 3];
          report(machine, i, outcome);
          expected_states[i] = state_after(outcome, (mask >> i & 1u) != 0);
          which += std::string(" ") + outcome_to_text(outcome);
        }
        for (std::size_t i = 0; i < 3; ++i) {
          EXPECT_EQ(machine.checkers().at("local").checks[i].state, expected_states[i]) << which << " check " << i;
        }
        HealthState expected = combine_states(rule, expected_states);
        EXPECT_EQ(machine.health(), expected) << which;
        EXPECT_EQ(machine.serving(), expected != HealthState::kDown) << which;  // unknown serves
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 4u * 8u * 27u);
}

}  // namespace
}  // namespace cutover::health
