// all-healthy: serving endpoints in configured order, capped at max_answers.
#include "pool/all_healthy/all_healthy_policy.h"

namespace cutover::pool {

Selection choose_all_healthy(const PoolSpec& spec, std::span<const Candidate> candidates) {
  Selection selection;
  selection.members = serving_only(candidates);
  if (spec.max_answers != 0 && selection.members.size() > spec.max_answers) selection.members.resize(spec.max_answers);
  return selection;
}

}  // namespace cutover::pool
