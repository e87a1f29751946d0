// weighted: each query gets max_answers (default 1) serving endpoints picked by weight.
// Pure function; thread-safe.
#pragma once

#include "pool/policy.h"

namespace cutover::pool {

void register_weighted_shape(PolicyRegistry& registry);

Selection choose_weighted(const PoolSpec& spec, std::span<const Candidate> candidates);

}  // namespace cutover::pool
