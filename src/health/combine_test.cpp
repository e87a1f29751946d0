// combine_states over every combination of three checks' states, for each rule, and the
// parsing of `combine:`.
#include "health/combine.h"

#include <array>

#include <gtest/gtest.h>

#include "health/state_machine.h"

namespace cutover::health {
namespace {

constexpr HealthState U = HealthState::kUnknown;
constexpr HealthState Up = HealthState::kUp;
constexpr HealthState D = HealthState::kDown;

TEST(Combine, ParsesTheThreeFormsAndRefusesTheRest) {
  EXPECT_EQ(parse_combine("all")->kind, CombineKind::kAll);
  EXPECT_EQ(parse_combine("any")->kind, CombineKind::kAny);
  auto two = parse_combine("at-least-2");
  ASSERT_TRUE(two);
  EXPECT_EQ(two->kind, CombineKind::kAtLeast);
  EXPECT_EQ(two->at_least, 2u);
  EXPECT_EQ(two->to_text(), "at-least-2");
  for (const char* bad : {"", "ALL", "most", "at-least-", "at-least-0", "at-least-65", "at-least-2x", "at-least--1"}) {
    EXPECT_FALSE(parse_combine(bad)) << bad;
  }
}

// Every one of the 27 combinations of three states, by rule: the verdict is written out by
// hand per case (not computed), so the table is the specification of docs/steering.md.
TEST(Combine, EveryCombinationOfThreeChecks) {
  struct Case {
    std::array<HealthState, 3> states;
    HealthState all, any, at_least_2;
  };
  const Case cases[] = {
      {{U, U, U}, U, U, U},     {{U, U, Up}, U, Up, U},    {{U, U, D}, D, U, U},
      {{U, Up, U}, U, Up, U},   {{U, Up, Up}, U, Up, Up},  {{U, Up, D}, D, Up, U},
      {{U, D, U}, D, U, U},     {{U, D, Up}, D, Up, U},    {{U, D, D}, D, U, D},
      {{Up, U, U}, U, Up, U},   {{Up, U, Up}, U, Up, Up},  {{Up, U, D}, D, Up, U},
      {{Up, Up, U}, U, Up, Up}, {{Up, Up, Up}, Up, Up, Up}, {{Up, Up, D}, D, Up, Up},
      {{Up, D, U}, D, Up, U},   {{Up, D, Up}, D, Up, Up},  {{Up, D, D}, D, Up, D},
      {{D, U, U}, D, U, U},     {{D, U, Up}, D, Up, U},    {{D, U, D}, D, U, D},
      {{D, Up, U}, D, Up, U},   {{D, Up, Up}, D, Up, Up},  {{D, Up, D}, D, Up, D},
      {{D, D, U}, D, U, D},     {{D, D, Up}, D, Up, D},    {{D, D, D}, D, D, D},
  };
  const Combine all{CombineKind::kAll, 1};
  const Combine any{CombineKind::kAny, 1};
  const Combine two{CombineKind::kAtLeast, 2};
  const Combine three{CombineKind::kAtLeast, 3};
  const Combine one{CombineKind::kAtLeast, 1};
  for (const auto& c : cases) {
    std::string which = std::string(state_to_text(c.states[0])) + "," + state_to_text(c.states[1]) + "," +
                        state_to_text(c.states[2]);
    EXPECT_EQ(combine_states(all, c.states), c.all) << which;
    EXPECT_EQ(combine_states(any, c.states), c.any) << which;
    EXPECT_EQ(combine_states(two, c.states), c.at_least_2) << which;
    EXPECT_EQ(combine_states(three, c.states), c.all) << which << ": at-least-3 of 3 is all";
    EXPECT_EQ(combine_states(one, c.states), c.any) << which << ": at-least-1 is any";
  }
}

TEST(Combine, OneCheckIsItsOwnVerdictWhateverTheRule) {
  for (const Combine rule : {Combine{CombineKind::kAll, 1}, Combine{CombineKind::kAny, 1}, Combine{CombineKind::kAtLeast, 5}}) {
    for (HealthState state : {U, Up, D}) {
      std::array<HealthState, 1> one{state};
      EXPECT_EQ(combine_states(rule, one), state) << rule.to_text();
    }
  }
  EXPECT_EQ(combine_states(Combine{}, std::span<const HealthState>{}), U);
  EXPECT_EQ((Combine{CombineKind::kAtLeast, 5}.needed(3)), 3u);  // capped at the checks there are
}

}  // namespace
}  // namespace cutover::health
