// Where a pool may sit in the served zones: inside one zone, not at or below a delegation,
// and on a name without zone data of its own (docs/pools.md). PoolService refuses a config,
// reload or API write that breaks it, and `cutover serve --check` runs the same check.
// Pure function; thread-safe.
#pragma once

#include <vector>

#include "auth/engine.h"
#include "base/result.h"
#include "pool/pool_spec.h"

namespace cutover::pool {

// The first pool of `specs` placed where it cannot be answered, as an error naming
// "pools.ID.name"; `zones` may be null (nothing served). With `materializing` (the write path
// writes materialized pools into their zones) a materialize-mode pool may already hold the A,
// AAAA and TXT records it writes itself.
base::Status check_pool_placement(const std::vector<PoolSpec>& specs, const auth::ZoneSet* zones, bool materializing);

}  // namespace cutover::pool
