// The write path's checks on a computed change: the floor (no name loses its last address)
// and the cache tail (how long caches may keep showing the old data). Pure functions;
// thread-safe.
#pragma once

#include <optional>
#include <string>

#include "store/write_result.h"
#include "store/zone_data.h"

namespace cutover::store {

// The message for the first name that had A or AAAA records in `before` and has none in
// `after`, naming every such name; nullopt when there is none.
std::optional<std::string> floor_violation(const ZoneData& before, const ZoneData& after, const Delta& delta);

// RFC 2308 §5: the negative-caching TTL is min(SOA TTL, SOA MINIMUM).
CacheTail cache_tail(const ZoneData& before, const Delta& delta);

}  // namespace cutover::store
