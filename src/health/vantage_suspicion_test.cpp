// VantageSuspicion on the fake clock: the majority rule written out, a vantage that
// disagrees for longer than suspect-after (and not one that disagrees exactly that long),
// a break that restarts the count, and the ways back to trusted.
#include "health/vantage_suspicion.h"

#include <gtest/gtest.h>

namespace cutover::health {
namespace {

using namespace std::chrono_literals;

constexpr HealthState U = HealthState::kUp;
constexpr HealthState D = HealthState::kDown;
constexpr HealthState X = HealthState::kUnknown;

TEST(VantageSuspicion, MajorityOfTheReportingVantages) {
  struct Case {
    std::vector<HealthState> vantages;
    std::optional<HealthState> want;
  };
  const std::vector<Case> cases{
      {{}, std::nullopt},
      {{X, X}, std::nullopt},
      {{U}, U},
      {{U, D}, std::nullopt},        // a tie: nobody can be said to disagree
      {{U, U, D}, U},
      {{D, D, U}, D},
      {{U, D, X}, std::nullopt},     // unknown does not report
      {{U, U, D, D, X}, std::nullopt},
      {{D, X, X}, D},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(majority_state(cases[i].vantages), cases[i].want) << "case " << i;
  }
}

TEST(VantageSuspicion, SuspectOnlyAfterDisagreeingForLongerThanSuspectAfter) {
  base::FakeClock clock;
  VantageSuspicion suspicion(60s);
  const std::map<std::string, HealthState> cut{{"fra", D}, {"ams", U}, {"lon", U}};
  EXPECT_TRUE(suspicion.update(cut, clock.now()).empty());
  EXPECT_EQ(suspicion.disagreeing_since("fra"), clock.now());
  clock.advance(60s);
  EXPECT_TRUE(suspicion.update(cut, clock.now()).empty()) << "exactly suspect-after is not longer than it";
  EXPECT_FALSE(suspicion.suspect("fra"));
  clock.advance(1ms);
  auto changes = suspicion.update(cut, clock.now());
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].vantage, "fra");
  EXPECT_TRUE(changes[0].suspect);
  EXPECT_EQ(changes[0].state, D);
  EXPECT_EQ(changes[0].majority, U);
  EXPECT_TRUE(suspicion.suspect("fra"));
  EXPECT_FALSE(suspicion.suspect("ams"));
  clock.advance(10s);
  EXPECT_TRUE(suspicion.update(cut, clock.now()).empty()) << "a change is reported once";

  // Its route comes back: trusted at once.
  const std::map<std::string, HealthState> agreed{{"fra", U}, {"ams", U}, {"lon", U}};
  changes = suspicion.update(agreed, clock.now());
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_FALSE(changes[0].suspect);
  EXPECT_EQ(changes[0].state, U);
  EXPECT_FALSE(suspicion.suspect("fra"));
  EXPECT_FALSE(suspicion.disagreeing_since("fra"));
}

TEST(VantageSuspicion, ABreakInTheDisagreementStartsTheCountAgain) {
  base::FakeClock clock;
  VantageSuspicion suspicion(10s);
  const std::map<std::string, HealthState> cut{{"a", D}, {"b", U}, {"c", U}};
  const std::map<std::string, HealthState> silent{{"a", X}, {"b", U}, {"c", U}};
  suspicion.update(cut, clock.now());
  clock.advance(8s);
  suspicion.update(silent, clock.now());  // unknown for a moment: no disagreement
  clock.advance(1s);
  suspicion.update(cut, clock.now());
  clock.advance(9s);
  EXPECT_TRUE(suspicion.update(cut, clock.now()).empty()) << "18 s in all, but only 9 s without a break";
  clock.advance(2s);
  EXPECT_EQ(suspicion.update(cut, clock.now()).size(), 1u);
}

TEST(VantageSuspicion, TrustedAgainWhenTheMajorityGoesOrTheVerdictExpires) {
  base::FakeClock clock;
  VantageSuspicion suspicion(5s);
  suspicion.update({{"a", D}, {"b", U}, {"c", U}}, clock.now());
  clock.advance(6s);
  ASSERT_EQ(suspicion.update({{"a", D}, {"b", U}, {"c", U}}, clock.now()).size(), 1u);
  // c's verdict expires: a tie, no majority left, nobody disagrees.
  auto changes = suspicion.update({{"a", D}, {"b", U}}, clock.now());
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_FALSE(changes[0].suspect);
  EXPECT_EQ(changes[0].majority, X);

  suspicion.update({{"a", D}, {"b", U}, {"c", U}}, clock.now());
  clock.advance(6s);
  ASSERT_EQ(suspicion.update({{"a", D}, {"b", U}, {"c", U}}, clock.now()).size(), 1u);
  // a's own verdict is deleted (its checker stopped).
  changes = suspicion.update({{"b", U}, {"c", U}}, clock.now());
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].vantage, "a");
  EXPECT_FALSE(changes[0].suspect);
  EXPECT_EQ(changes[0].state, X);
}

TEST(VantageSuspicion, TheMajorityCanBeDownAndTheLoneUpIsSuspect) {
  base::FakeClock clock;
  VantageSuspicion suspicion(1s);
  const std::map<std::string, HealthState> state{{"a", D}, {"b", D}, {"c", U}};
  suspicion.update(state, clock.now());
  clock.advance(2s);
  auto changes = suspicion.update(state, clock.now());
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].vantage, "c");
  EXPECT_EQ(changes[0].majority, D);
}

}  // namespace
}  // namespace cutover::health
