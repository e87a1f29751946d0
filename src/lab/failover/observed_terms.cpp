// D and K of an E10 case from its raw observations.
#include "lab/failover/observed_terms.h"

#include <cmath>

namespace cutover::lab {

std::optional<double> derive_detection(const CaseResult& result) {
  if (!result.details.contains("direct_observations")) return std::nullopt;
  CaseResult direct;
  direct.rule = Rule::kFirstAnswer;
  direct.rule_value = result.rule_value;
  for (const auto& entry : result.details["direct_observations"]) direct.observations.push_back(observation_from_json(entry));
  return derive_measured(direct);
}

std::optional<double> derive_cache_term(const CaseResult& result) {
  auto detection = derive_detection(result);
  if (!detection || !result.measured) return std::nullopt;
  return std::round((*result.measured - *detection) * 1000) / 1000;
}

}  // namespace cutover::lab
