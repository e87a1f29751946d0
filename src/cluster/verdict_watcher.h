// VerdictWatcher: the server side of a cluster (docs/cluster.md). Reads every verdict under
// PREFIX/verdicts/, then watches for changes, and hands each vantage's verdict to the pool
// service's health monitor (report_vantage; a deleted or expired one: forget_vantage), the
// same path a local probe result takes to the answers. While etcd is unreachable it keeps
// retrying; the monitor turns silent vantages unknown after three intervals, and the
// quorum rule then holds the last verdict. One server::Service; start/stop from one thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include "base/log.h"
#include "cluster/cluster_config.h"
#include "cluster/etcd_client.h"
#include "health/health_monitor.h"
#include "server/server.h"

namespace cutover::cluster {

// What the watch knows of etcd, for the cluster section of /status (cluster_status.h).
struct WatchState {
  bool reached = false;  // the last call (read or watch) got an answer from a member
  std::optional<std::chrono::system_clock::time_point> last_reached;  // when one last did
  std::string last_error;  // of the last call that reached no member; empty when none failed
  std::string member;      // the member calls go to first
  // The etcd revision up to which every verdict change has been applied to the monitor
  // (the read's revision, then each watched batch's); 0 before the first read.
  std::int64_t revision = 0;
};

class VerdictWatcher : public server::Service {
 public:
  // `monitor` and `logger` must outlive the watcher.
  VerdictWatcher(ClusterConfig config, health::HealthMonitor& monitor, base::Logger& logger);
  ~VerdictWatcher() override;

  std::string name() const override { return "cluster"; }
  base::Status start() override;
  void stop() override;
  // The section is read at start only: a reload whose `cluster:` differs is logged as
  // reload.restart_needed and changes nothing (docs/cluster.md, "Configuration").
  base::Status reload(const config::Config& next) override;

  // Thread-safe.
  WatchState state() const;

 private:
  using VerdictId = std::tuple<std::string, std::string, std::string>;  // pool, endpoint, vantage
  void loop();
  void apply_put(const std::string& key, const std::string& value);
  void apply_delete(const std::string& key);
  bool pause(std::chrono::milliseconds how_long);  // false once stopping
  void reached(std::int64_t revision);
  void failed(const std::string& error);

  ClusterConfig config_;
  health::HealthMonitor& monitor_;
  base::Logger& logger_;
  EtcdClient etcd_;
  std::set<VerdictId> known_;  // touched by the loop thread only

  mutable std::mutex state_mutex_;  // guards state_
  WatchState state_;

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cutover::cluster
