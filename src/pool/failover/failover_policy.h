// failover (active-passive): the serving endpoints of the best priority group that has any.
// Pure function; thread-safe.
#pragma once

#include "pool/policy.h"

namespace cutover::pool {

void register_failover_shape(PolicyRegistry& registry);

Selection choose_failover(const PoolSpec& spec, std::span<const Candidate> candidates);

}  // namespace cutover::pool
