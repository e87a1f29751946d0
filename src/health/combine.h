// Combine: how the checks of one endpoint make one verdict per vantage (`combine: all |
// any | at-least-K`, docs/steering.md). This is the first of the three steps from probes to
// an answer: checks combine per vantage (here), vantages by quorum (state_machine.h), then
// the pool applies its shape, min-healthy and when-all-down (pool/answer_builder.h).
// Pure functions and a value type; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cutover::health {

enum class HealthState { kUnknown, kUp, kDown };

enum class CombineKind { kAll, kAny, kAtLeast };

struct Combine {
  CombineKind kind = CombineKind::kAll;
  std::size_t at_least = 1;  // K of at-least-K

  // Checks that must be up for the endpoint to be up, out of `checks`: all of them, one,
  // or K (capped at `checks`).
  std::size_t needed(std::size_t checks) const;
  std::string to_text() const;  // "all", "any", "at-least-2"
};

// "all", "any" or "at-least-K" with K >= 1; nullopt for anything else.
std::optional<Combine> parse_combine(std::string_view text);

// One vantage's verdict from its checks' states, with K = combine.needed(n):
//   up      when at least K checks are up;
//   down    when so many are down that K can no longer be up (more than n - K);
//   unknown otherwise (not enough verdicts yet either way).
// So `all` is down as soon as one check is down, and up once every check is up; `any` is up
// as soon as one is up, and down once all are down.
HealthState combine_states(const Combine& combine, std::span<const HealthState> states);

}  // namespace cutover::health
