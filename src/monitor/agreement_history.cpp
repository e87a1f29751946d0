// AgreementHistory: the last rounds' agreement per watched name.
#include "monitor/agreement_history.h"

#include <set>

namespace cutover::monitor {

void AgreementHistory::record(const std::vector<WatchOutcome>& outcomes, std::uint64_t round, double at_unix) {
  std::set<std::string> watched;
  for (const auto& outcome : outcomes) {
    std::string subject = watch_subject(outcome);
    watched.insert(subject);
    auto& points = points_[subject];
    points.push_back(AgreementPoint{round, at_unix, !outcome.mismatch});
    while (points.size() > kAgreementRounds) points.pop_front();
  }
  std::erase_if(points_, [&](const auto& entry) { return !watched.contains(entry.first); });
}

const std::deque<AgreementPoint>& AgreementHistory::of(const std::string& subject) const {
  static const std::deque<AgreementPoint> kNone;
  auto it = points_.find(subject);
  return it == points_.end() ? kNone : it->second;
}

}  // namespace cutover::monitor
