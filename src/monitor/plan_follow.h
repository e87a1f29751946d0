// PlanFollower: `cutover monitor --plan RUNBOOK.json` (docs/operations.md, "Following a
// runbook"). It reads each monitor round (watch_outcome.h: the sweep's answers of every
// authoritative and resolver) against the runbook's step checks (tools/plan/runbook.h,
// StepCheck) and says, step by step, when the step's wait really passed on the watched
// resolvers (ready), when its action was seen on the authoritatives (done), and how the
// measured wait compares with the planned one. Time comes from the caller (unix seconds), so
// tests drive it with made-up rounds. Not thread-safe; the monitor holds it under its lock.
//
// Steps follow each other within a phase ("records", "nameservers"): a step is looked at once
// the step before it in its phase is done. Its ready checks on resolvers hold for each resolver
// separately (a resolver that matched once stays counted); the step is ready when every
// resolver is. A step without done checks is done when it is ready. A lowered TTL (ttl-at-most)
// counts on a resolver only once it has held for longer than the TTL itself plus the slack:
// the last seconds of an old long-TTL copy show a small TTL too, and a resolver with a TTL floor
// shows one at the end of every copy; only a resolver that really serves the lowered TTL keeps
// it below the bound across a refresh. Its ready time is when that run began.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "monitor/alerts.h"
#include "monitor/monitor_config.h"
#include "monitor/watch_outcome.h"
#include "tools/plan/runbook.h"

namespace cutover::monitor {

struct PlanStepProgress {
  std::string phase;
  std::string title;
  double planned_offset = 0;                  // seconds after T+0, from the runbook
  std::optional<std::size_t> after;           // the step before it in its phase
  std::optional<double> planned_wait;         // its offset minus that step's: the plan's wait
  std::optional<double> ready_at;             // unix seconds
  std::optional<double> done_at;
  std::map<std::string, double> resolver_ready;  // resolver -> unix seconds it first held
  std::optional<double> measured_wait;        // ready_at - the step before's done_at
  bool late = false;                          // measured wait > planned wait + slack
  bool early = false;                         // done before ready: acted before the wait passed
  std::string waiting_for;                    // what holds it now ("" when ready and done)
};

struct PlanEvent {
  std::size_t step = 0;
  std::string kind;  // "ready", "done", "resolver-ready", "late", "early"
  double at = 0;     // unix seconds
  std::string text;
};

struct PlanProgress {
  std::string origin;
  double start_unix = 0;    // T+0 of the runbook
  double slack_seconds = 0;  // added to planned waits before a step counts as late
  std::vector<PlanStepProgress> steps;
  bool finished = false;  // every step done
};

class PlanFollower {
 public:
  // `slack_seconds`: how much later than planned a wait may end before it is late (the
  // monitor passes one round interval plus the question timeouts: it sees changes that late).
  PlanFollower(tools::Runbook book, double slack_seconds);

  // Every (name, type) a check asks about, as watches for the monitor's rounds.
  std::vector<WatchSpec> watches() const;

  // One round's outcomes at `now`: updates the steps and returns what changed.
  std::vector<PlanEvent> observe(const std::vector<WatchOutcome>& outcomes, double now);

  // "plan-window" conditions: a step whose planned wait (plus slack) has passed since the step
  // before it was done while some resolver still does not hold its ready checks.
  std::vector<Condition> conditions(double now) const;

  const PlanProgress& progress() const { return progress_; }

 private:
  bool check_holds(const tools::StepCheck& check, const std::vector<WatchOutcome>& outcomes,
                   const std::string& resolver, double now, std::string& why) const;
  bool authoritatives_hold(const std::vector<tools::StepCheck>& checks, const std::vector<WatchOutcome>& outcomes,
                           double now, std::string& why) const;

  tools::Runbook book_;
  PlanProgress progress_;
  std::vector<std::string> resolvers_seen_;  // every resolver that appeared in a round
  // Per step: resolver -> since when its ready checks have held without a break.
  std::vector<std::map<std::string, double>> hold_since_;
};

nlohmann::json plan_progress_to_json(const PlanProgress& progress);
// The step table for people: planned and measured times per step.
std::string plan_progress_to_text(const PlanProgress& progress);

}  // namespace cutover::monitor
