// PoolStateWatcher: the other half of shared pool state (docs/cluster.md, "Shared pool
// state"). Every server of a cluster writes its pools' entries to etcd (EtcdJournal); this
// service reads every pool stream's mark under PREFIX journal/marks/, then watches them, and
// for each mark that moved has PoolWrites take the pool's newest state (sync), so a drain or
// an API pool written on one server is answered by all. While etcd is unreachable it keeps
// retrying and the servers answer from the last state they applied; after every break it
// reads all marks again, so nothing written meanwhile is missed. One server::Service.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "base/log.h"
#include "cluster/cluster_config.h"
#include "cluster/etcd_client.h"
#include "pool/writes/pool_writes.h"
#include "server/server.h"

namespace cutover::cluster {

class PoolStateWatcher : public server::Service {
 public:
  // `writes` and `logger` must outlive the watcher.
  PoolStateWatcher(ClusterConfig config, pool::PoolWrites& writes, base::Logger& logger);
  ~PoolStateWatcher() override;

  std::string name() const override { return "cluster-pool-state"; }
  base::Status start() override;
  void stop() override;

  // The etcd revision whose pool marks this server has applied (0: none read yet).
  std::int64_t applied_revision() const { return applied_.load(); }
  // Whether the last call reached etcd.
  bool reachable() const { return reachable_.load(); }

 private:
  void loop();
  bool apply(const std::string& key, std::int64_t revision);  // false when the sync failed
  bool pause(std::chrono::milliseconds how_long);  // false once stopping

  ClusterConfig config_;
  pool::PoolWrites& writes_;
  base::Logger& logger_;
  EtcdClient etcd_;
  std::atomic<std::int64_t> applied_{0};
  std::atomic<bool> reachable_{false};

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace cutover::cluster
