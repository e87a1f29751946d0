// The cluster section's wiring: one status object, read by /status, /metrics and the console.
#include "app/cluster_wiring.h"

namespace cutover::app {
namespace {

// Keeps the watcher alive beside the status that reads it.
struct WatchedStatus {
  WatchedStatus(std::shared_ptr<cluster::VerdictWatcher> watched, const cluster::ClusterConfig& config,
                const pool::PoolService& pools)
      : watcher(std::move(watched)), status(config, *watcher, pools.monitor(), pools.clock()) {}
  std::shared_ptr<cluster::VerdictWatcher> watcher;
  cluster::ClusterStatus status;
};

}  // namespace

std::shared_ptr<cluster::ClusterStatus> add_cluster_status(pool::PoolService& pools, const cluster::ClusterConfig& config,
                                                           std::shared_ptr<cluster::VerdictWatcher> watcher) {
  pools.monitor().set_suspect_after(config.suspect_after);
  auto held = std::make_shared<WatchedStatus>(std::move(watcher), config, pools);
  std::shared_ptr<cluster::ClusterStatus> status(held, &held->status);
  cluster::add_cluster_status(pools, status);
  return status;
}

void add_cluster_panel(control::Console& console, std::shared_ptr<const cluster::ClusterStatus> status) {
  console.add_panel("cluster", [status] { return control::PanelReading{status->to_json().dump(), std::nullopt}; });
}

}  // namespace cutover::app
