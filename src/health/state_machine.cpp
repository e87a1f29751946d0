// EndpointStateMachine: per-checker rise/fall counting, quorum and override.
#include "health/state_machine.h"

namespace cutover::health {
namespace {

void reset(CheckerView& view) {
  view.state = HealthState::kUnknown;
  view.consecutive_passes = 0;
  view.consecutive_failures = 0;
  view.last_failure.reset();
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

bool EndpointStateMachine::report(const std::string& checker, ProbeOutcome outcome, base::SteadyTime now) {
  Observable before = observe();
  CheckerView& view = checkers_[checker];
  view.last_report = now;
  if (outcome == ProbeOutcome::kError) {
    reset(view);
    return finish(before, now);
  }
  if (outcome == ProbeOutcome::kPass) {
    view.consecutive_failures = 0;
    view.last_failure.reset();
    ++view.consecutive_passes;
    if (view.state == HealthState::kUnknown ||
        (view.state == HealthState::kDown && view.consecutive_passes >= thresholds_.rise)) {
      view.state = HealthState::kUp;
    }
    return finish(before, now);
  }
  view.consecutive_passes = 0;
  ++view.consecutive_failures;
  view.last_failure = now;
  bool first_verdict_decides = view.state == HealthState::kUnknown && thresholds_.wait_for_first_check;
  if (view.consecutive_failures >= thresholds_.fall || first_verdict_decides) view.state = HealthState::kDown;
  return finish(before, now);
}

bool EndpointStateMachine::tick(base::SteadyTime now) {
  Observable before = observe();
  auto stall_limit = thresholds_.interval * kStallIntervals;
  for (auto& [name, view] : checkers_) {
    if (view.last_report && now - *view.last_report > stall_limit) reset(view);
  }
  return finish(before, now);
}

bool EndpointStateMachine::set_override(Override value, base::SteadyTime now) {
  Observable before = observe();
  override_ = value;
  return finish(before, now);
}

HealthState EndpointStateMachine::health() const {
  std::size_t up = 0;
  std::size_t down = 0;
  for (const auto& [name, view] : checkers_) {
    if (view.state == HealthState::kUp) ++up;
    if (view.state == HealthState::kDown) ++down;
  }
  if (down >= thresholds_.quorum) return HealthState::kDown;
  if (up >= thresholds_.quorum) return HealthState::kUp;
  return HealthState::kUnknown;
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
  for (const auto& [name, view] : checkers_) {
    if (view.state == HealthState::kDown || view.consecutive_failures == 0 || !view.last_failure) continue;
    // The next probe started at least I after the failed one, which began at most T before
    // it was reported; the remaining failures can come one interval apart from there.
    auto deadline = *view.last_failure + thresholds_.interval * (thresholds_.fall - view.consecutive_failures) -
                    thresholds_.timeout;
    if (!earliest || deadline < *earliest) earliest = deadline;
  }
  return earliest;
}

bool EndpointStateMachine::finish(const Observable& before, base::SteadyTime now) {
  Observable after = observe();
  if (after.effective != before.effective) last_transition_ = now;
  return !(after == before);
}

}  // namespace cutover::health
