// The HTTP/JSON write API on the shared control listener: read records and versions, write
// (set/add/delete with fence, floor and dry run), history, undo and journal compaction.
// Every write goes through store::Store::write. Handlers are thread-safe.
#pragma once

#include "control/control_server.h"
#include "store/store.h"

namespace cutover::writes {

// `store` must outlive `http`'s serving.
void add_api_routes(control::ControlServer& http, store::Store& store);

}  // namespace cutover::writes
