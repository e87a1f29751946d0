// weighted: the serving endpoints become the draw; the per-query pick happens in
// PoolAnswers at query time.
#include "pool/weighted/weighted_policy.h"

#include <algorithm>

namespace cutover::pool {

Selection choose_weighted(const PoolSpec& spec, std::span<const Candidate> candidates) {
  Selection selection;
  selection.members = serving_only(candidates);
  selection.per_query = std::max<std::size_t>(1, spec.max_answers);
  return selection;
}

void register_weighted_shape(PolicyRegistry& registry) {
  registry.add(Shape{
      .name = "weighted",
      .choose = choose_weighted,
      .option_keys = {"max-answers"},
      .read_option = [](PoolSpec& spec, const std::string&, const health::OptionReader& reader) {
        read_max_answers(spec, reader);
      },
      .draws_per_query = true,
  });
}

}  // namespace cutover::pool
