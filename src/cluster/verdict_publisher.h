// VerdictPublisher: one vantage's verdicts to etcd (docs/cluster.md, "Keys"): the latest
// verdict per endpoint, written under one lease of three probe intervals that is renewed on
// every round. While etcd is unreachable it keeps the latest verdict of each endpoint; when
// etcd answers again it takes a new lease if the old one ran out and writes them all. Used by
// `cutover checker` (CheckerAgent) and by a server whose own probes count as a vantage
// (`local-checker: true` in a cluster), so the other servers count them too. Thread-safe:
// on_verdict from any thread (it only stores), start/stop from one.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "base/log.h"
#include "cluster/etcd_client.h"
#include "cluster/verdict.h"
#include "config/config.h"
#include "health/health_monitor.h"
#include "server/server.h"

namespace cutover::cluster {

struct CheckerOptions {
  std::vector<EtcdMember> members;
  std::string vantage;
  std::string prefix = kDefaultPrefix;
};

// Three of the longest probe interval of the config's pools, in whole seconds, at least 2.
std::chrono::seconds lease_ttl_for(const config::Config& config);

class VerdictPublisher {
 public:
  // `logger` must outlive the publisher.
  VerdictPublisher(CheckerOptions options, std::chrono::seconds lease_ttl, base::Logger& logger);
  ~VerdictPublisher();
  VerdictPublisher(const VerdictPublisher&) = delete;
  VerdictPublisher& operator=(const VerdictPublisher&) = delete;

  void start();
  void stop();
  // Stores `verdict` as its endpoint's latest and wakes the publishing thread.
  void on_verdict(const health::VantageVerdict& verdict);

  std::chrono::seconds lease_ttl() const { return lease_ttl_; }
  std::uint64_t published() const;
  const CheckerOptions& options() const { return options_; }
  std::string current_member() const { return etcd_.current_member(); }
  // What `cutover checker`'s /status shows (docs/cluster.md, "Status and suspect vantages"):
  // the vantage, its lease, whether the last round reached etcd, and the latest verdict of
  // each endpoint (as published, or waiting to be).
  nlohmann::json status_json() const;

 private:
  void loop();

  CheckerOptions options_;
  std::chrono::seconds lease_ttl_;
  base::Logger& logger_;
  EtcdClient etcd_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, std::string> latest_;  // key -> JSON value, the last verdict of each endpoint
  std::map<std::string, bool> dirty_;          // keys not yet written since their last change
  bool stopping_ = false;
  std::uint64_t published_ = 0;
  // The last round: whether it reached etcd, when a round last did, and the error if not.
  bool reached_ = false;
  std::optional<std::chrono::system_clock::time_point> last_reached_;
  std::string last_error_;
  std::int64_t lease_ = 0;
  std::thread thread_;
};

// A server's own probes as one more vantage of the cluster (`local-checker: true`): every
// verdict of its health monitor is published under the server's vantage name, like a
// checker's, so the other servers count it in their quorum. Install before the monitor
// starts (the observer is set once).
class LocalVerdicts : public server::Service {
 public:
  LocalVerdicts(CheckerOptions options, std::chrono::seconds lease_ttl, health::HealthMonitor& monitor,
                base::Logger& logger);
  std::string name() const override { return "cluster-local-verdicts"; }
  base::Status start() override;
  void stop() override { publisher_.stop(); }

 private:
  VerdictPublisher publisher_;
};

}  // namespace cutover::cluster
