// AlertEngine: the monitor's alert rules as one state machine per (rule, subject). Each
// round the caller reports which conditions hold; the engine says which alerts start firing
// and which resolve, once per transition. Time comes from the caller (a base::Clock reading),
// so tests drive it with a fake clock. Not thread-safe; the monitor holds it under its lock.
//
//   inactive --condition holds--> pending --held for the rule's `for`--> firing  (emits "firing")
//   pending  --condition gone---> inactive                                        (emits nothing)
//   firing   --condition gone---> inactive                                        (emits "resolved")
//
// A rule with `for: 0s` goes from inactive to firing in the round its condition first holds.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "monitor/monitor_config.h"

namespace cutover::monitor {

// Rule ids as they appear in metrics, /status and webhook payloads.
inline constexpr const char* kRuleMismatch = "mismatch";
inline constexpr const char* kRuleNxdomain = "nxdomain";
inline constexpr const char* kRuleAuthoritativeSilent = "authoritative-silent";
// `cutover monitor --plan`: a resolver still holds the old state after a step's planned wait.
inline constexpr const char* kRulePlanWindow = "plan-window";

struct Condition {
  std::string rule;     // one of the kRule* ids
  std::string subject;  // "www.example.test. A" or an authoritative "127.0.0.1:53"
  std::string message;  // why, for the payload
};

struct AlertEvent {
  std::string rule;
  std::string subject;
  std::string state;    // "firing" or "resolved"
  std::string message;  // the condition's message (the last one seen, for "resolved")
  double held_seconds = 0;  // how long the condition had held at this transition
};

struct AlertStatus {
  std::string rule;
  std::string subject;
  bool firing = false;  // false: pending
  double held_seconds = 0;
  std::string message;
};

class AlertEngine {
 public:
  explicit AlertEngine(AlertRules rules) : rules_(rules) {}

  // `holding`: every condition true this round (of enabled or disabled rules: disabled ones
  // are ignored). Anything tracked and not in the list no longer holds.
  std::vector<AlertEvent> update(const std::vector<Condition>& holding, base::SteadyTime now);

  // Alerts pending or firing, ordered by rule then subject.
  std::vector<AlertStatus> active(base::SteadyTime now) const;
  std::size_t transitions() const { return transitions_; }

 private:
  struct Tracked {
    base::SteadyTime since;
    bool firing = false;
    std::string message;
  };
  const AlertRule* rule(const std::string& id) const;

  AlertRules rules_;
  std::map<std::pair<std::string, std::string>, Tracked> tracked_;
  std::size_t transitions_ = 0;
};

}  // namespace cutover::monitor
