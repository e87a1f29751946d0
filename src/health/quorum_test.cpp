// decide_quorum: every rule over written-out vantage verdicts, the expired (unknown) vantage
// that does not count as down, and the last verdict kept when the quorum is lost.
#include "health/quorum.h"

#include <gtest/gtest.h>

#include <vector>

namespace cutover::health {
namespace {

constexpr HealthState U = HealthState::kUp;
constexpr HealthState D = HealthState::kDown;
constexpr HealthState X = HealthState::kUnknown;  // expired, deleted or could not probe

QuorumRule quorum(std::size_t k) { return QuorumRule{QuorumRule::Kind::kQuorum, k, 0}; }
QuorumRule above(unsigned percent) { return QuorumRule{QuorumRule::Kind::kHealthyAbove, 1, percent}; }

struct Case {
  const char* name;
  QuorumRule rule;
  std::vector<HealthState> vantages;
  HealthState last;
  HealthState want;
  bool lost;
};

TEST(Quorum, Table) {
  const std::vector<Case> cases{
      // The default: one local checker, today's rule.
      {"local up", {}, {U}, D, U, false},
      {"local down", {}, {D}, U, D, false},
      {"local unknown serves as unknown", {}, {X}, D, X, false},
      {"local none", {}, {}, U, X, false},
      // quorum 2 of three vantages.
      {"2 of 3 up", quorum(2), {U, U, D}, D, U, false},
      {"one vantage down changes nothing", quorum(2), {U, U, D}, U, U, false},
      {"2 of 3 down", quorum(2), {D, D, U}, U, D, false},
      {"expired is not down", quorum(2), {D, X, U}, U, U, false},
      {"split keeps last (down)", quorum(2), {D, X, U}, D, D, false},
      {"one reporting: lost, keeps up", quorum(2), {U, X, X}, U, U, true},
      {"one reporting: lost, keeps down", quorum(2), {D, X, X}, D, D, true},
      {"none reporting: lost", quorum(2), {X, X, X}, U, U, true},
      {"no vantage at all: lost", quorum(2), {}, D, D, true},
      {"before any verdict: unknown, lost", quorum(2), {}, X, X, true},
      // quorum 1: one vantage that sees down is enough.
      {"q1 one down", quorum(1), {U, U, D}, U, D, false},
      {"q1 all up", quorum(1), {U, U, U}, D, U, false},
      {"q1 none", quorum(1), {X, X, X}, D, D, true},
      // quorum 3: all must agree.
      {"q3 two down is not enough", quorum(3), {D, D, U}, U, U, false},
      {"q3 three down", quorum(3), {D, D, D}, U, D, false},
      // Route 53: healthy above 18 %.
      {"18%: 1 of 3 up is up", above(18), {U, D, D}, D, U, false},
      {"18%: 0 of 3 up is down", above(18), {D, D, D}, U, D, false},
      {"18%: 1 of 6 up is down (16.7%)", above(18), {U, D, D, D, D, D}, U, D, false},
      {"18%: 1 of 5 up is up (20%)", above(18), {U, D, D, D, D}, D, U, false},
      {"18%: expired ones do not count", above(18), {D, X, X}, U, D, false},
      {"18%: none reporting: lost", above(18), {X, X}, U, U, true},
      {"50%: exactly half is not above", above(50), {U, D}, U, D, false},
  };
  for (const auto& c : cases) {
    QuorumDecision got = decide_quorum(c.rule, c.vantages, c.last);
    EXPECT_EQ(got.state, c.want) << c.name;
    EXPECT_EQ(got.quorum_lost, c.lost) << c.name;
  }
}

TEST(Quorum, CountsWhatReported) {
  std::vector<HealthState> vantages{U, D, X, U};
  QuorumDecision got = decide_quorum(quorum(2), vantages, X);
  EXPECT_EQ(got.up, 2u);
  EXPECT_EQ(got.down, 1u);
  EXPECT_EQ(got.reporting, 3u);
  EXPECT_EQ(got.state, U);
}

}  // namespace
}  // namespace cutover::health
