// The cluster section of `cutover serve`'s /status, its /metrics lines and the console's
// cluster panel (docs/cluster.md, "Status and suspect vantages"): this server's vantage,
// whether it probes itself, the etcd members and whether the last call reached one, the
// etcd revision whose verdicts are applied, and each vantage that reports (its last verdict,
// its endpoints, whether it is suspect). Each endpoint's quorum result stays where it is, in
// the pool's endpoint (pools[].endpoints[]: quorum, quorum_lost, quorum_votes, vantages).
// cluster_status_json and render_cluster_metrics are pure; ClusterStatus is thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "cluster/cluster_config.h"
#include "cluster/verdict_watcher.h"
#include "health/health_monitor.h"
#include "health/health_snapshot.h"

namespace cutover::pool {
class PoolService;
}

namespace cutover::cluster {

struct ClusterStatusInput {
  const ClusterConfig* config = nullptr;
  WatchState watch;
  const std::vector<health::EndpointReport>* reports = nullptr;
  const base::Clock* clock = nullptr;
  // The etcd revision of the shared pool state this server has applied; nullopt while no
  // shared pool state is wired (ClusterStatus::set_pool_state_revision).
  std::optional<std::int64_t> pool_state_revision;
  // Each etcd member's own status, asked when /status is (not for /metrics).
  std::vector<MemberStatus> members;
};

nlohmann::json cluster_status_json(const ClusterStatusInput& input);
// cutover_cluster_etcd_reachable, cutover_cluster_verdicts_revision and
// cutover_cluster_vantage_suspect{pool,endpoint,vantage} (0/1).
std::string render_cluster_metrics(const ClusterStatusInput& input);

class ClusterStatus {
 public:
  // `watcher`, `monitor` and `clock` must outlive this (the composition root holds them).
  ClusterStatus(ClusterConfig config, const VerdictWatcher& watcher, const health::HealthMonitor& monitor,
                const base::Clock& clock)
      : config_(std::move(config)), watcher_(watcher), monitor_(monitor), clock_(clock) {}

  // The hook for the shared pool state (docs/cluster.md): where the revision it applied is
  // read from. Thread-safe; may be set at any time.
  void set_pool_state_revision(std::function<std::optional<std::int64_t>()> source);

  nlohmann::json to_json() const;
  std::string metrics() const;

 private:
  ClusterStatusInput input(const std::vector<health::EndpointReport>& reports) const;

  const ClusterConfig config_;
  const VerdictWatcher& watcher_;
  const health::HealthMonitor& monitor_;
  const base::Clock& clock_;
  mutable std::mutex mutex_;  // guards pool_state_revision_
  std::function<std::optional<std::int64_t>()> pool_state_revision_;
};

// Adds `status`'s section to the pools' /status ("cluster") and its lines to /metrics.
// Call before the pool service starts.
void add_cluster_status(pool::PoolService& pools, std::shared_ptr<const ClusterStatus> status);

}  // namespace cutover::cluster
