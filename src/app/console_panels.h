// The panels of `cutover serve`'s web console (control/console/console.h), built from what
// the composition root holds: the pools' status report, the served zones with the journal's
// last writes, and the replication role of each zone. Every panel source is thread-safe.
#pragma once

#include <memory>

#include "app/replication.h"
#include "control/console/console.h"
#include "pool/service/pool_service.h"
#include "server/server.h"

namespace cutover::app {

// How many of a zone's latest journal entries the zones panel lists.
inline constexpr std::uint64_t kConsoleWrites = 8;

// Adds the "pools", "zones" and "replication" panels to `console`. `server`, `pools` and
// `replication` (may be null: no journal, no replication) must outlive the console's routes.
// The replication roles are read from `config` now (they change with a restart only).
// `undo` says whether the zone write API (and so undo) is mounted.
void add_serve_panels(control::Console& console, const server::Server& server, pool::PoolService& pools,
                      Replication* replication, const config::Config& config, bool undo);

}  // namespace cutover::app
