// VantageSuspicion: which vantages of one endpoint disagree with the majority for longer
// than `suspect-after` (docs/cluster.md, "Status and suspect vantages"). A vantage whose
// own network is cut sees endpoints down that every other vantage reaches; it is reported
// as suspect, and nothing else changes: the quorum rule (quorum.h) still counts it. Pure
// logic driven by the times it is given (fake-clock testable). Not thread-safe: the
// HealthMonitor serialises access, like the state machine's.
//
// The majority is the state (up or down) held by more than half of the vantages that report
// (up or down) on the endpoint; a tie has no majority. A vantage disagrees while it reports
// the other state. It turns suspect once it has disagreed without a break for longer than
// suspect-after, and trusted again at the first update where it does not disagree (it
// agrees, says unknown, no majority is left, or its verdict expired).
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/clock.h"
#include "health/combine.h"

namespace cutover::health {

// The default of `cluster.suspect-after`.
constexpr std::chrono::milliseconds kDefaultSuspectAfter{60'000};

// The state more than half of the reporting vantages hold (unknown ones do not report);
// nullopt on a tie or when none reports.
std::optional<HealthState> majority_state(std::span<const HealthState> vantages);

struct SuspectChange {
  std::string vantage;
  bool suspect = false;         // true: it became suspect; false: trusted again
  HealthState state = HealthState::kUnknown;     // its verdict at the change
  HealthState majority = HealthState::kUnknown;  // the majority's (unknown: none)
};

class VantageSuspicion {
 public:
  explicit VantageSuspicion(std::chrono::milliseconds suspect_after = kDefaultSuspectAfter)
      : suspect_after_(suspect_after) {}

  // The vantages' verdicts on the endpoint now (a vantage missing from the map has expired);
  // the vantages whose flag changed.
  std::vector<SuspectChange> update(const std::map<std::string, HealthState>& vantages, base::SteadyTime now);

  bool suspect(const std::string& vantage) const;
  // Since when `vantage` has disagreed without a break; nullopt while it does not.
  std::optional<base::SteadyTime> disagreeing_since(const std::string& vantage) const;
  std::chrono::milliseconds suspect_after() const { return suspect_after_; }
  void set_suspect_after(std::chrono::milliseconds value) { suspect_after_ = value; }

 private:
  struct Track {
    base::SteadyTime since;
    bool suspect = false;
  };
  std::chrono::milliseconds suspect_after_;
  std::map<std::string, Track> disagreeing_;  // only vantages that disagree now
};

}  // namespace cutover::health
