// The HTTP/JSON write API on the shared control listener: read records and versions, write
// (set/add/delete with fence, floor and dry run), history, undo and journal compaction.
// Every write goes through store::Store::write. Handlers are thread-safe.
#pragma once

#include <set>
#include <string>

#include "control/control_server.h"
#include "store/store.h"

namespace cutover::writes {

// Zones whose content comes from a primary (store::zone_key of each): the API reads them
// but refuses writes, undo and compaction, which the next transfer would undo or contradict.
using SecondaryZoneKeys = std::set<std::string>;

// `store` must outlive `http`'s serving.
void add_api_routes(control::ControlServer& http, store::Store& store, SecondaryZoneKeys secondaries);

}  // namespace cutover::writes
