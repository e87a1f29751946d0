// EndpointStateMachine: per-check rise/fall counting, the combination of checks per
// vantage, quorum over vantages, and the override.
#include "health/state_machine.h"

#include <algorithm>

namespace cutover::health {
namespace {

void reset(CheckerView& view) {
  view.state = HealthState::kUnknown;
  view.consecutive_passes = 0;
  view.consecutive_failures = 0;
  view.last_failure.reset();
}

ProbeOutcome inverted(ProbeOutcome outcome) {
  if (outcome == ProbeOutcome::kPass) return ProbeOutcome::kFail;
  if (outcome == ProbeOutcome::kFail) return ProbeOutcome::kPass;
  return outcome;  // a probe that could not run says nothing either way
}

}  // namespace

const char* state_to_text(HealthState state) {
  switch (state) {
    case HealthState::kUnknown: return "unknown";
    case HealthState::kUp: return "up";
    case HealthState::kDown: return "down";
  }
  return "unknown";
}

const char* override_to_text(Override value) {
  switch (value) {
    case Override::kNone: return "none";
    case Override::kDrain: return "drain";
    case Override::kForceUp: return "force-up";
  }
  return "none";
}

CheckRule Thresholds::rule(std::size_t check) const {
  if (check < checks.size()) return checks[check];
  return CheckRule{fall, rise, interval, timeout, false};
}

VantageView& EndpointStateMachine::vantage(const std::string& checker) {
  VantageView& view = checkers_[checker];
  view.remote = false;
  view.checks.resize(thresholds_.check_count());
  return view;
}

HealthState EndpointStateMachine::vantage_state(const VantageView& vantage) const {
  std::vector<HealthState> states;
  states.reserve(vantage.checks.size());
  for (const auto& check : vantage.checks) states.push_back(check.state);
  return combine_states(thresholds_.combine, states);
}

void EndpointStateMachine::reconfigure(const Thresholds& thresholds) {
  thresholds_ = thresholds;
  for (auto& [name, view] : checkers_) {
    if (view.remote) continue;
    view.checks.resize(thresholds_.check_count());
    view.state = vantage_state(view);
  }
  decide();
}

bool EndpointStateMachine::report(const std::string& checker, std::size_t check, ProbeOutcome outcome,
                                  base::SteadyTime now) {
  Observable before = observe();
  VantageView& vantage = this->vantage(checker);
  if (check >= vantage.checks.size()) return false;  // a check removed by a reload reported late
  const CheckRule rule = thresholds_.rule(check);
  if (rule.invert) outcome = inverted(outcome);
  CheckerView& view = vantage.checks[check];
  view.last_report = now;
  if (outcome == ProbeOutcome::kError) {
    reset(view);
  } else if (outcome == ProbeOutcome::kPass) {
    view.consecutive_failures = 0;
    view.last_failure.reset();
    ++view.consecutive_passes;
    if (view.state == HealthState::kUnknown ||
        (view.state == HealthState::kDown && view.consecutive_passes >= rule.rise)) {
      view.state = HealthState::kUp;
    }
  } else {
    view.consecutive_passes = 0;
    ++view.consecutive_failures;
    view.last_failure = now;
    bool first_verdict_decides = view.state == HealthState::kUnknown && thresholds_.wait_for_first_check;
    if (view.consecutive_failures >= rule.fall || first_verdict_decides) view.state = HealthState::kDown;
  }
  vantage.state = vantage_state(vantage);
  return finish(before, now);
}

bool EndpointStateMachine::tick(base::SteadyTime now) {
  Observable before = observe();
  std::chrono::milliseconds longest{0};
  for (std::size_t i = 0; i < thresholds_.check_count(); ++i) longest = std::max(longest, thresholds_.rule(i).interval);
  for (auto& [name, vantage] : checkers_) {
    if (vantage.remote) {
      if (vantage.last_report && now - *vantage.last_report > longest * kStallIntervals) {
        vantage.state = HealthState::kUnknown;
      }
      continue;
    }
    for (std::size_t i = 0; i < vantage.checks.size(); ++i) {
      CheckerView& view = vantage.checks[i];
      auto stall_limit = thresholds_.rule(i).interval * kStallIntervals;
      if (view.last_report && now - *view.last_report > stall_limit) reset(view);
    }
    vantage.state = vantage_state(vantage);
  }
  return finish(before, now);
}

bool EndpointStateMachine::set_override(Override value, base::SteadyTime now) {
  Observable before = observe();
  override_ = value;
  return finish(before, now);
}

void EndpointStateMachine::decide() {
  std::vector<HealthState> states;
  states.reserve(checkers_.size());
  for (const auto& [name, view] : checkers_) states.push_back(view.state);
  QuorumRule rule = thresholds_.quorum_rule;
  if (rule.kind == QuorumRule::Kind::kLocal) rule.quorum = thresholds_.quorum;
  QuorumDecision decision = decide_quorum(rule, states, health_);
  health_ = decision.state;
  quorum_lost_ = decision.quorum_lost;
}

bool EndpointStateMachine::set_vantage(const std::string& vantage, HealthState state, base::SteadyTime now) {
  Observable before = observe();
  VantageView& view = checkers_[vantage];
  view.remote = true;
  view.checks.clear();
  view.state = state;
  view.last_report = now;
  return finish(before, now);
}

bool EndpointStateMachine::remove_vantage(const std::string& vantage, base::SteadyTime now) {
  Observable before = observe();
  checkers_.erase(vantage);
  return finish(before, now);
}

HealthState EndpointStateMachine::effective() const {
  if (override_ == Override::kDrain) return HealthState::kDown;
  if (override_ == Override::kForceUp) return HealthState::kUp;
  return health();
}

bool EndpointStateMachine::serving() const {
  HealthState state = effective();
  return state == HealthState::kUp || (state == HealthState::kUnknown && !thresholds_.wait_for_first_check);
}

std::optional<base::SteadyTime> EndpointStateMachine::suspicion_deadline() const {
  if (override_ != Override::kNone || health() == HealthState::kDown) return std::nullopt;
  std::optional<base::SteadyTime> earliest;
  for (const auto& [name, vantage] : checkers_) {
    if (vantage.state == HealthState::kDown) continue;
    for (std::size_t i = 0; i < vantage.checks.size(); ++i) {
      const CheckerView& view = vantage.checks[i];
      if (view.state == HealthState::kDown || view.consecutive_failures == 0 || !view.last_failure) continue;
      // Only a check whose verdict would take its vantage down makes the endpoint suspect
      // (under `any`, one failing check of several that pass does not).
      std::vector<HealthState> states;
      for (const auto& other : vantage.checks) states.push_back(other.state);
      states[i] = HealthState::kDown;
      if (combine_states(thresholds_.combine, states) != HealthState::kDown) continue;
      // The next probe started at least I after the failed one, which began at most T before
      // it was reported; the remaining failures can come one interval apart from there.
      const CheckRule rule = thresholds_.rule(i);
      auto deadline = *view.last_failure + rule.interval * (rule.fall - view.consecutive_failures) - rule.timeout;
      if (!earliest || deadline < *earliest) earliest = deadline;
    }
  }
  return earliest;
}

bool EndpointStateMachine::finish(const Observable& before, base::SteadyTime now) {
  decide();
  Observable after = observe();
  if (after.effective != before.effective) last_transition_ = now;
  return !(after == before);
}

}  // namespace cutover::health
