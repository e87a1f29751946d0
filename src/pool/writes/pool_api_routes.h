// The pool API on the control listener: pools CRUD with versions and the journaled
// operator overrides, every change through PoolWrites (fence, floor, journal, dry run,
// history, undo). Handlers are thread-safe.
#pragma once

#include "control/control_server.h"
#include "pool/service/pool_service.h"
#include "pool/writes/pool_writes.h"

namespace cutover::pool {

// Adds the routes to `http` and takes over the override route of `service`; call before
// the control server starts. `writes` must outlive `http`'s serving.
void add_pool_api_routes(control::ControlServer& http, PoolWrites& writes, PoolService& service);

}  // namespace cutover::pool
