// EndpointStateMachine: the one owner of rise/fall/unknown for one endpoint. It takes raw
// probe outcomes tagged with the checker (vantage) and the check that produced them, keeps
// a state per check per vantage, combines each vantage's checks (combine.h: all, any,
// at-least-K), combines the vantages by quorum (k of n; today one local vantage, k = 1),
// then applies the operator override. Pure logic driven by the times it is given
// (fake-clock testable). Not thread-safe: the HealthMonitor serialises access.
//
// State chart of one check's view in one vantage (F = fall, R = rise, I = interval, all of
// that check; an inverted check swaps pass and fail before the chart sees them):
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
// Vantage verdict = combine_states(combine, its checks' states) (combine.h).
// Endpoint health = the quorum rule over the vantages (quorum.h): by default down if ≥ k
// vantages say down, else up if ≥ k say up, else unknown; with `checkers:` a lost quorum
// keeps the last health. Remote vantages (`cutover checker`, docs/cluster.md) hand in their
// combined verdict whole (set_vantage); they turn unknown after 3 intervals of silence.
// Effective state = the override when set (drain → down, force-up → up), else health.
// `unknown` still serves (a restart or a broken checker never empties an answer), unless
// the pool asked to wait for the first check.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>

#include <vector>

#include "base/clock.h"
#include "health/combine.h"
#include "health/quorum.h"
#include "health/probe.h"

namespace cutover::health {

enum class Override { kNone, kDrain, kForceUp };

const char* state_to_text(HealthState state);
const char* override_to_text(Override value);

// The counting rules of one check.
struct CheckRule {
  int fall = kDefaultFall;
  int rise = kDefaultRise;
  std::chrono::milliseconds interval = kDefaultInterval;
  std::chrono::milliseconds timeout = kDefaultTimeout;
  bool invert = false;
};

struct Thresholds {
  int fall = kDefaultFall;
  int rise = kDefaultRise;
  std::chrono::milliseconds interval = kDefaultInterval;
  std::chrono::milliseconds timeout = kDefaultTimeout;
  bool wait_for_first_check = false;
  std::size_t quorum = 1;  // k: checkers that must agree (the local rule)
  QuorumRule quorum_rule;  // `checkers:`; kLocal uses `quorum` as k
  // One rule per check of the endpoint (`checks:`); empty: one check counted by the
  // fields above.
  std::vector<CheckRule> checks;
  Combine combine;

  std::size_t check_count() const { return checks.empty() ? 1 : checks.size(); }
  CheckRule rule(std::size_t check) const;
};

// A checker stalled for more than this many intervals no longer knows anything.
constexpr int kStallIntervals = 3;

// One check's view in one vantage.
struct CheckerView {
  HealthState state = HealthState::kUnknown;
  int consecutive_passes = 0;
  int consecutive_failures = 0;
  std::optional<base::SteadyTime> last_report;
  std::optional<base::SteadyTime> last_failure;
};

// One vantage: its checks' views and their combined verdict.
struct VantageView {
  HealthState state = HealthState::kUnknown;
  std::vector<CheckerView> checks;  // by check index; empty for a remote vantage
  bool remote = false;              // its verdict came whole from another checker
  std::optional<base::SteadyTime> last_report;  // remote: when its verdict arrived
};

class EndpointStateMachine {
 public:
  explicit EndpointStateMachine(Thresholds thresholds) : thresholds_(thresholds) { decide(); }

  // Each returns true when anything an answer depends on changed: the effective state,
  // serving(), or the suspicion deadline.
  bool report(const std::string& checker, std::size_t check, ProbeOutcome outcome, base::SteadyTime now);
  // The endpoint's only (first) check.
  bool report(const std::string& checker, ProbeOutcome outcome, base::SteadyTime now) {
    return report(checker, 0, outcome, now);
  }
  // A remote vantage's combined verdict (published by `cutover checker`).
  bool set_vantage(const std::string& vantage, HealthState state, base::SteadyTime now);
  // A remote vantage whose verdict expired or was deleted: it no longer reports.
  bool remove_vantage(const std::string& vantage, base::SteadyTime now);
  bool tick(base::SteadyTime now);  // turns stalled checkers to unknown
  bool set_override(Override value, base::SteadyTime now);
  // New thresholds after a reload; keeps states and counters (of the checks that remain,
  // by index).
  void reconfigure(const Thresholds& thresholds);

  HealthState health() const { return health_; }
  // Fewer vantages report than the quorum needs: health() is the last verdict, held.
  bool quorum_lost() const { return quorum_lost_; }
  HealthState effective() const;
  Override override_value() const { return override_; }
  // Whether the endpoint may be in answers (up, or unknown unless waiting for a first check).
  bool serving() const;
  // While some checker has failed but the endpoint is not yet down: the earliest time it
  // could be declared down (for the suspicion TTL).
  std::optional<base::SteadyTime> suspicion_deadline() const;
  std::optional<base::SteadyTime> last_transition() const { return last_transition_; }
  const std::map<std::string, VantageView>& checkers() const { return checkers_; }

 private:
  struct Observable {
    HealthState effective;
    bool serving;
    std::optional<base::SteadyTime> deadline;
    bool quorum_lost;
    bool operator==(const Observable&) const = default;
  };
  Observable observe() const { return {effective(), serving(), suspicion_deadline(), quorum_lost_}; }
  void decide();  // applies the quorum rule to the vantages' states
  bool finish(const Observable& before, base::SteadyTime now);
  HealthState vantage_state(const VantageView& vantage) const;
  VantageView& vantage(const std::string& checker);

  Thresholds thresholds_;
  std::map<std::string, VantageView> checkers_;
  Override override_ = Override::kNone;
  std::optional<base::SteadyTime> last_transition_;
  HealthState health_ = HealthState::kUnknown;
  bool quorum_lost_ = false;
};

}  // namespace cutover::health
