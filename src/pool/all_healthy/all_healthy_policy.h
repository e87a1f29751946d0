// all-healthy (active-active, multivalue): every serving endpoint, at most max_answers.
// Pure function; thread-safe.
#pragma once

#include "pool/policy.h"

namespace cutover::pool {

void register_all_healthy_shape(PolicyRegistry& registry);

Selection choose_all_healthy(const PoolSpec& spec, std::span<const Candidate> candidates);

}  // namespace cutover::pool
