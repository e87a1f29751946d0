// failover: lowest priority number wins; all serving endpoints of that priority answer.
#include "pool/failover/failover_policy.h"

#include <algorithm>

namespace cutover::pool {

Selection choose_failover(const PoolSpec&, std::span<const Candidate> candidates) {
  Selection selection;
  std::vector<Candidate> serving = serving_only(candidates);
  if (serving.empty()) return selection;
  int best = std::min_element(serving.begin(), serving.end(), [](const auto& a, const auto& b) {
               return a.priority < b.priority;
             })->priority;
  for (const auto& candidate : serving) {
    if (candidate.priority == best) selection.members.push_back(candidate);
  }
  return selection;
}

void register_failover_shape(PolicyRegistry& registry) {
  registry.add(Shape{
      .name = "failover",
      .choose = choose_failover,
      .option_keys = {"max-answers"},
      .read_option = [](PoolSpec& spec, const std::string&, const health::OptionReader& reader) {
        read_max_answers(spec, reader);
      },
  });
}

}  // namespace cutover::pool
