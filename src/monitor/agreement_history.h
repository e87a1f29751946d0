// AgreementHistory: per watched name and type, whether the sources agreed in each of the
// monitor's last kAgreementRounds rounds (the console's agreement strip, docs/console.md).
// Bounded: at most kAgreementRounds points per watched name, and only names of the config.
// Plain value; not thread-safe (the Monitor keeps it under its lock and copies it out).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "monitor/watch_outcome.h"

namespace cutover::monitor {

inline constexpr std::size_t kAgreementRounds = 120;

struct AgreementPoint {
  std::uint64_t round = 0;  // the round's number (1 = the first)
  double at_unix = 0;       // when it ended
  bool agree = false;       // no mismatch in that round
};

class AgreementHistory {
 public:
  // Adds round `round`'s outcome of every watched name; names absent from `outcomes` (taken
  // out of the config) are forgotten.
  void record(const std::vector<WatchOutcome>& outcomes, std::uint64_t round, double at_unix);
  // The points of `subject` (watch_subject), oldest first; empty when unknown.
  const std::deque<AgreementPoint>& of(const std::string& subject) const;

 private:
  std::map<std::string, std::deque<AgreementPoint>> points_;
};

}  // namespace cutover::monitor
