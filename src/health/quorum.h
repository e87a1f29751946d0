// The quorum rule: how the verdicts of several vantages (checkers) combine into an
// endpoint's health (docs/cluster.md, "Quorum"). Pure function; thread-safe.
//
//   local (the default, one checker in the server): down if k (1) vantages say down, else
//     up if k say up, else unknown (which serves); never "quorum lost".
//   quorum K (`checkers: {quorum: K}`): down when at least K vantages say down, else up
//     when at least K say up. A vantage that says unknown, or whose verdict expired, does
//     not report. Fewer than K reporting: the last verdict stays and the quorum is lost.
//     Enough reporting but no K agree: the last verdict stays (no flap through unknown).
//   healthy-above P% (`checkers: {healthy-above: 18%}`, Route 53's rule): up when more than
//     P% of the reporting vantages say up, else down; none reporting: the last verdict
//     stays and the quorum is lost.
#pragma once

#include <cstddef>
#include <span>

#include "health/combine.h"

namespace cutover::health {

struct QuorumRule {
  enum class Kind { kLocal, kQuorum, kHealthyAbove };
  Kind kind = Kind::kLocal;
  std::size_t quorum = 1;           // kQuorum: K; kLocal: k (1 unless a test says)
  unsigned healthy_above = 0;       // kHealthyAbove: P, 0 to 99

  bool operator==(const QuorumRule&) const = default;
};

struct QuorumDecision {
  HealthState state = HealthState::kUnknown;
  bool quorum_lost = false;
  std::size_t reporting = 0;  // vantages saying up or down
  std::size_t up = 0;
  std::size_t down = 0;
};

// `vantages`: each vantage's combined verdict (unknown for one that expired); `last`: the
// endpoint's health before this decision.
QuorumDecision decide_quorum(const QuorumRule& rule, std::span<const HealthState> vantages, HealthState last);

}  // namespace cutover::health
