// EndpointStateMachine: the one owner of rise/fall/unknown for one endpoint. It takes raw
// probe outcomes tagged with the checker that produced them, keeps a state per checker,
// and combines them by quorum (k of n; today one local checker, k = 1), then applies the
// operator override. Pure logic driven by the times it is given (fake-clock testable).
// Not thread-safe: the HealthMonitor serialises access.
//
// State chart of one checker's view (F = fall, R = rise, I = interval):
//
//            pass                         F consecutive fails
//   unknown ────────────▶ up ──────────────────────────────────▶ down
//      │                  ▲                                        │
//      │ F consecutive    └─────────── R consecutive passes ───────┘
//      │ fails (1 with wait-for-first-check)
//      └──────────────────────────────────────────────────────────▶ down
//
//   any state ──(probe could not run | no report for 3·I)──▶ unknown (counters reset)
//
// Endpoint health = down if ≥ k checkers say down, else up if ≥ k say up, else unknown.
// Effective state = the override when set (drain → down, force-up → up), else health.
// `unknown` still serves (a restart or a broken checker never empties an answer), unless
// the pool asked to wait for the first check.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include "base/clock.h"
#include "health/probe.h"

namespace cutover::health {

enum class HealthState { kUnknown, kUp, kDown };
enum class Override { kNone, kDrain, kForceUp };

const char* state_to_text(HealthState state);
const char* override_to_text(Override value);

struct Thresholds {
  int fall = kDefaultFall;
  int rise = kDefaultRise;
  std::chrono::milliseconds interval = kDefaultInterval;
  std::chrono::milliseconds timeout = kDefaultTimeout;
  bool wait_for_first_check = false;
  std::size_t quorum = 1;  // k: checkers that must agree
};

// A checker stalled for more than this many intervals no longer knows anything.
constexpr int kStallIntervals = 3;

struct CheckerView {
  HealthState state = HealthState::kUnknown;
  int consecutive_passes = 0;
  int consecutive_failures = 0;
  std::optional<base::SteadyTime> last_report;
  std::optional<base::SteadyTime> last_failure;
};

class EndpointStateMachine {
 public:
  explicit EndpointStateMachine(Thresholds thresholds) : thresholds_(thresholds) {}

  // Each returns true when anything an answer depends on changed: the effective state,
  // serving(), or the suspicion deadline.
  bool report(const std::string& checker, ProbeOutcome outcome, base::SteadyTime now);
  bool tick(base::SteadyTime now);  // turns stalled checkers to unknown
  bool set_override(Override value, base::SteadyTime now);
  // New thresholds after a reload; keeps states and counters.
  void reconfigure(const Thresholds& thresholds) { thresholds_ = thresholds; }

  HealthState health() const;
  HealthState effective() const;
  Override override_value() const { return override_; }
  // Whether the endpoint may be in answers (up, or unknown unless waiting for a first check).
  bool serving() const;
  // While some checker has failed but the endpoint is not yet down: the earliest time it
  // could be declared down (for the suspicion TTL).
  std::optional<base::SteadyTime> suspicion_deadline() const;
  std::optional<base::SteadyTime> last_transition() const { return last_transition_; }
  const std::map<std::string, CheckerView>& checkers() const { return checkers_; }

 private:
  struct Observable {
    HealthState effective;
    bool serving;
    std::optional<base::SteadyTime> deadline;
    bool operator==(const Observable&) const = default;
  };
  Observable observe() const { return {effective(), serving(), suspicion_deadline()}; }
  bool finish(const Observable& before, base::SteadyTime now);

  Thresholds thresholds_;
  std::map<std::string, CheckerView> checkers_;
  Override override_ = Override::kNone;
  std::optional<base::SteadyTime> last_transition_;
};

}  // namespace cutover::health
