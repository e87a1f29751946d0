// VantageSuspicion: the majority of the reporting vantages, and each vantage's unbroken
// disagreement with it measured against suspect-after.
#include "health/vantage_suspicion.h"

namespace cutover::health {

std::optional<HealthState> majority_state(std::span<const HealthState> vantages) {
  std::size_t up = 0;
  std::size_t down = 0;
  for (HealthState state : vantages) {
    if (state == HealthState::kUp) ++up;
    if (state == HealthState::kDown) ++down;
  }
  if (up > down) return HealthState::kUp;
  if (down > up) return HealthState::kDown;
  return std::nullopt;  // a tie, or nobody reports
}

std::vector<SuspectChange> VantageSuspicion::update(const std::map<std::string, HealthState>& vantages,
                                                    base::SteadyTime now) {
  std::vector<HealthState> states;
  states.reserve(vantages.size());
  for (const auto& [name, state] : vantages) states.push_back(state);
  const std::optional<HealthState> majority = majority_state(states);
  const HealthState majority_or_unknown = majority.value_or(HealthState::kUnknown);

  std::vector<SuspectChange> changes;
  // Vantages that no longer disagree (or are gone) drop their track; a suspect one is trusted again.
  for (auto it = disagreeing_.begin(); it != disagreeing_.end();) {
    auto found = vantages.find(it->first);
    const HealthState state = found == vantages.end() ? HealthState::kUnknown : found->second;
    const bool disagrees = majority && state != HealthState::kUnknown && state != *majority;
    if (disagrees) {
      ++it;
      continue;
    }
    if (it->second.suspect) changes.push_back({it->first, false, state, majority_or_unknown});
    it = disagreeing_.erase(it);
  }
  if (!majority) return changes;
  for (const auto& [name, state] : vantages) {
    if (state == HealthState::kUnknown || state == *majority) continue;
    Track& track = disagreeing_.try_emplace(name, Track{now, false}).first->second;
    // "Longer than" suspect-after: a disagreement of exactly suspect-after is not yet suspect.
    if (!track.suspect && now - track.since > suspect_after_) {
      track.suspect = true;
      changes.push_back({name, true, state, *majority});
    }
  }
  return changes;
}

bool VantageSuspicion::suspect(const std::string& vantage) const {
  auto found = disagreeing_.find(vantage);
  return found != disagreeing_.end() && found->second.suspect;
}

std::optional<base::SteadyTime> VantageSuspicion::disagreeing_since(const std::string& vantage) const {
  auto found = disagreeing_.find(vantage);
  if (found == disagreeing_.end()) return std::nullopt;
  return found->second.since;
}

}  // namespace cutover::health
