// CheckerAgent: `cutover checker`'s work. Runs the probes of every pool of a config with the
// server's own HealthMonitor (the same probes, rise/fall and combination of checks) and
// hands each endpoint's combined verdict to a VerdictPublisher (etcd, one lease; it keeps
// probing while etcd is unreachable). Thread-safe: start/stop from one thread.
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
#include "cluster/verdict_publisher.h"
#include "config/config.h"
#include "health/health_monitor.h"

namespace cutover::cluster {

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
  std::chrono::seconds lease_ttl() const { return publisher_->lease_ttl(); }
  // Verdicts published since start (counted for the tests and the log).
  std::uint64_t published() const { return publisher_->published(); }
  // The checker's /status document: {"role": "checker", "cluster": {...}} with its vantage,
  // lease, etcd (and each member's own status) and the latest verdict of every endpoint
  // (docs/cluster.md, "Status and suspect vantages"). Asks the etcd members, so it can take
  // up to half a second.
  nlohmann::json status_json() const;

 private:
  const config::Config& config_;
  base::Logger& logger_;
  base::RealClock clock_;
  health::ProbeRegistry probes_;
  std::unique_ptr<VerdictPublisher> publisher_;
  std::unique_ptr<health::HealthMonitor> monitor_;
};

}  // namespace cutover::cluster
