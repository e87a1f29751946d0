// CheckerAgent: `cutover checker`'s work. Runs the probes of every pool of a config with the
// server's own HealthMonitor (the same probes, rise/fall and combination of checks) and
// publishes each endpoint's combined verdict to etcd under one lease of three probe
// intervals, renewed on every publish round. While etcd is unreachable it keeps probing and
// keeps the latest verdict per endpoint; when etcd answers again it takes a new lease if
// the old one ran out and publishes them all. Thread-safe: start/stop from one thread.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "base/clock.h"
#include "base/log.h"
#include "cluster/etcd_client.h"
#include "cluster/verdict.h"
#include "config/config.h"
#include "health/health_monitor.h"

namespace cutover::cluster {

struct CheckerOptions {
  std::vector<EtcdMember> members;
  std::string vantage;
  std::string prefix = kDefaultPrefix;
};

class CheckerAgent {
 public:
  // `config` and `logger` must outlive the agent. Throws config::ConfigError when the
  // config has no pool.
  CheckerAgent(const config::Config& config, CheckerOptions options, base::Logger& logger);
  ~CheckerAgent();
  CheckerAgent(const CheckerAgent&) = delete;
  CheckerAgent& operator=(const CheckerAgent&) = delete;

  base::Status start();
  void stop();

  // The lease TTL: three of the longest probe interval, in whole seconds, at least 2.
  std::chrono::seconds lease_ttl() const { return lease_ttl_; }
  // Verdicts published since start (counted for the tests and the log).
  std::uint64_t published() const;

 private:
  void on_verdict(const health::VantageVerdict& verdict);  // under the monitor's lock
  void publish_loop();

  const config::Config& config_;
  CheckerOptions options_;
  base::Logger& logger_;
  base::RealClock clock_;
  health::ProbeRegistry probes_;
  std::unique_ptr<health::HealthMonitor> monitor_;
  EtcdClient etcd_;
  std::chrono::seconds lease_ttl_{2};

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, std::string> latest_;  // key -> JSON value, the last verdict of each endpoint
  std::map<std::string, bool> dirty_;          // keys not yet written since their last change
  bool stopping_ = false;
  std::uint64_t published_ = 0;
  std::thread publisher_;
};

}  // namespace cutover::cluster
