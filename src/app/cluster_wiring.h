// The cluster's share of `cutover serve`'s observability (docs/cluster.md, "Status and
// suspect vantages"), kept apart from the rest of the wiring: suspect-after on the pools'
// monitor, the "cluster" member of /status and its /metrics lines, and the console's
// cluster panel. Called from Serve's constructor, from one thread.
#pragma once

#include <memory>

#include "cluster/cluster_config.h"
#include "cluster/cluster_status.h"
#include "cluster/verdict_watcher.h"
#include "control/console/console.h"
#include "pool/service/pool_service.h"

namespace cutover::app {

// Before the pools start. The returned status holds `watcher`; it reads `pools`' monitor,
// which must outlive it. Its set_pool_state_revision is where the shared pool state says
// which revision it applied.
std::shared_ptr<cluster::ClusterStatus> add_cluster_status(pool::PoolService& pools, const cluster::ClusterConfig& config,
                                                           std::shared_ptr<cluster::VerdictWatcher> watcher);

// The "cluster" panel: the same document as /status's "cluster" member.
void add_cluster_panel(control::Console& console, std::shared_ptr<const cluster::ClusterStatus> status);

}  // namespace cutover::app
