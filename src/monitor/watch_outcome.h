// WatchOutcome: one watched name's sweep round (tools/sweep) read the monitor's way: do the
// authoritatives agree, does each resolver match them, is the expected answer served, did
// anyone say NXDOMAIN for a name that should exist. Plain values; pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "monitor/alerts.h"
#include "monitor/monitor_config.h"
#include "tools/sweep/sweep.h"

namespace cutover::monitor {

struct WatchOutcome {
  std::string name;  // "www.example.test."
  std::string type;  // "A"
  tools::SweepRound round;
  bool authoritatives_agree = false;      // every answering authoritative serves the reference
  std::optional<bool> expected_matches;   // when the watch has `expect`
  bool mismatch = false;                  // a source differs, or the expected answer is not served
  bool nxdomain = false;                  // a source said NXDOMAIN and the name should exist
  std::vector<std::string> silent_authoritatives;
};

// `round` is sweep_once's result for `spec`.
WatchOutcome evaluate_watch(const WatchSpec& spec, tools::SweepRound round);

// "www.example.test. A": the subject of a name's alerts.
std::string watch_subject(const WatchOutcome& outcome);

// The alert conditions a round of outcomes holds. An authoritative counts as silent only when
// it answered none of the questions it was asked this round.
std::vector<Condition> conditions_of(const std::vector<WatchOutcome>& outcomes);

}  // namespace cutover::monitor
