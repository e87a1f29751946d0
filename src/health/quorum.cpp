// decide_quorum: the three rules of quorum.h.
#include "health/quorum.h"

namespace cutover::health {

QuorumDecision decide_quorum(const QuorumRule& rule, std::span<const HealthState> vantages, HealthState last) {
  QuorumDecision out;
  for (HealthState state : vantages) {
    if (state == HealthState::kUp) ++out.up;
    if (state == HealthState::kDown) ++out.down;
  }
  out.reporting = out.up + out.down;
  switch (rule.kind) {
    case QuorumRule::Kind::kLocal: {
      const std::size_t k = rule.quorum == 0 ? 1 : rule.quorum;
      out.state = out.down >= k ? HealthState::kDown : out.up >= k ? HealthState::kUp : HealthState::kUnknown;
      return out;
    }
    case QuorumRule::Kind::kQuorum: {
      const std::size_t k = rule.quorum == 0 ? 1 : rule.quorum;
      if (out.down >= k) {
        out.state = HealthState::kDown;
      } else if (out.up >= k) {
        out.state = HealthState::kUp;
      } else {
        out.state = last;
        out.quorum_lost = out.reporting < k;
      }
      return out;
    }
    case QuorumRule::Kind::kHealthyAbove:
      if (out.reporting == 0) {
        out.state = last;
        out.quorum_lost = true;
      } else {
        out.state = out.up * 100 > static_cast<std::size_t>(rule.healthy_above) * out.reporting ? HealthState::kUp
                                                                                               : HealthState::kDown;
      }
      return out;
  }
  return out;
}

}  // namespace cutover::health
