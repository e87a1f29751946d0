// all-healthy: serving endpoints in configured order, capped at max_answers.
#include "pool/all_healthy/all_healthy_policy.h"

namespace cutover::pool {

Selection choose_all_healthy(const PoolSpec& spec, std::span<const Candidate> candidates) {
  Selection selection;
  selection.members = serving_only(candidates);
  if (spec.max_answers != 0 && selection.members.size() > spec.max_answers) selection.members.resize(spec.max_answers);
  return selection;
}

void register_all_healthy_shape(PolicyRegistry& registry) {
  registry.add(Shape{
      .name = "all-healthy",
      .choose = choose_all_healthy,
      .option_keys = {"max-answers"},
      .read_option = [](PoolSpec& spec, const std::string&, const health::OptionReader& reader) {
        read_max_answers(spec, reader);
      },
  });
}

}  // namespace cutover::pool
