// The canary of a dry run: the answers a change would alter, computed by asking the real
// answer engine the same questions of the current zone and of the changed one.
// Stateless; thread-safe.
#pragma once

#include <vector>

#include "auth/engine.h"
#include "store/write_result.h"
#include "store/zone_data.h"

namespace cutover::store {

// One question per (owner, type) the delta touches, SOA excluded; only answers that differ.
std::vector<AnswerChange> answer_diff(const auth::ZoneSet& before, const auth::ZoneSet& after, const Delta& delta);

}  // namespace cutover::store
