// The pool API on the control listener: pools CRUD with versions and the journaled
// operator overrides, every change through PoolWrites (fence, floor, journal, dry run,
// history, undo). Handlers are thread-safe.
#pragma once

#include "control/control_server.h"
#include "pool/service/pool_service.h"
#include "pool/writes/pool_writes.h"

namespace cutover::pool {

// Adds the routes to `http`, the override route among them (as journaled writes; without a
// journal the composition root adds pool/service's in-memory one instead). Call before the
// control server starts. `writes` must outlive `http`'s serving.
void add_pool_api_routes(control::ControlServer& http, PoolWrites& writes);

}  // namespace cutover::pool
