// The alert state machine of alerts.h.
#include "monitor/alerts.h"

#include <set>

namespace cutover::monitor {
namespace {

double seconds_between(base::SteadyTime from, base::SteadyTime to) {
  return std::chrono::duration<double>(to - from).count();
}

}  // namespace

const AlertRule* AlertEngine::rule(const std::string& id) const {
  const AlertRule* found = nullptr;
  if (id == kRuleMismatch) found = &rules_.mismatch;
  if (id == kRuleNxdomain) found = &rules_.nxdomain;
  if (id == kRuleAuthoritativeSilent) found = &rules_.authoritative_silent;
  if (id == kRulePlanWindow) found = &rules_.plan_window;
  return found != nullptr && found->enabled ? found : nullptr;
}

std::vector<AlertEvent> AlertEngine::update(const std::vector<Condition>& holding, base::SteadyTime now) {
  std::vector<AlertEvent> events;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& condition : holding) {
    const AlertRule* alert_rule = rule(condition.rule);
    if (alert_rule == nullptr) continue;
    auto key = std::make_pair(condition.rule, condition.subject);
    if (!seen.insert(key).second) continue;
    auto [it, inserted] = tracked_.try_emplace(key, Tracked{now, false, condition.message});
    Tracked& tracked = it->second;
    tracked.message = condition.message;
    if (!tracked.firing && now - tracked.since >= alert_rule->hold) {
      tracked.firing = true;
      ++transitions_;
      events.push_back({condition.rule, condition.subject, "firing", condition.message,
                        seconds_between(tracked.since, now)});
    }
  }
  for (auto it = tracked_.begin(); it != tracked_.end();) {
    if (seen.count(it->first) != 0) {
      ++it;
      continue;
    }
    if (it->second.firing) {
      ++transitions_;
      events.push_back({it->first.first, it->first.second, "resolved", it->second.message,
                        seconds_between(it->second.since, now)});
    }
    it = tracked_.erase(it);
  }
  return events;
}

std::vector<AlertStatus> AlertEngine::active(base::SteadyTime now) const {
  std::vector<AlertStatus> out;
  for (const auto& [key, tracked] : tracked_) {
    out.push_back({key.first, key.second, tracked.firing, seconds_between(tracked.since, now), tracked.message});
  }
  return out;
}

}  // namespace cutover::monitor
