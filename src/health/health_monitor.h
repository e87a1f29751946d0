// HealthMonitor: runs one Checker per endpoint, feeds their results to the endpoints'
// state machines, and publishes a new HealthSnapshot (through the listener) on every change
// that can alter an answer. A publisher thread wakes at the change and publishes before
// anything else happens to it, so the next query after a verdict already sees it; changes
// that land while it builds are folded into its next snapshot, so a burst (a restart, a
// whole rack failing) costs a few rebuilds, not one per endpoint, and checkers never wait
// on a rebuild. Also holds operator overrides, which survive reconfigure() (SIGHUP).
// Thread-safe; the listener runs on the publisher thread only (snapshots arrive in order)
// and must not call back into the monitor.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/log.h"
#include "base/result.h"
#include "health/checker.h"
#include "health/combine.h"
#include "health/endpoint_counters.h"
#include "health/health_snapshot.h"
#include "health/probe.h"
#include "health/probe_history.h"
#include "health/quorum.h"
#include "health/state_machine.h"
#include "health/vantage_suspicion.h"

namespace cutover::health {

struct MonitoredEndpoint {
  std::string pool;
  dns::Name pool_name;
  std::string address;
  std::uint16_t port = 0;  // the endpoint's port; 0: none configured
  // `address` is a name (a hostname endpoint): checks without check-address resolve it.
  bool hostname = false;
  CheckSettings check;
  // Every check of an endpoint with several (`checks:`), combined by `combine`; empty: `check`
  // alone. Each runs on its own checker with its own timing and rise/fall counting.
  std::vector<CheckSettings> checks;
  Combine combine;
  bool wait_for_first_check = false;
  // Where in the interval this endpoint's probes start, so a pool's probes are spread out.
  std::chrono::milliseconds start_offset{0};
  // How the vantages combine (`checkers:`; quorum.h); the default is the one local checker.
  QuorumRule quorum;
};

// The local vantage's view of one endpoint right after one of its probes reported: what
// `cutover checker` publishes (docs/cluster.md).
struct VantageVerdict {
  std::string pool;
  std::string address;
  HealthState state = HealthState::kUnknown;  // the vantage's checks combined (combine.h)
  std::size_t check = 0;                      // the check that reported
  ProbeResult result;
  std::chrono::system_clock::time_point probe_at;
  std::vector<CheckerView> checks;  // every check's state and rise/fall counters
  std::chrono::milliseconds interval{0};  // the longest interval of the endpoint's checks
};

// The name of the checker running inside this server process.
constexpr const char* kLocalChecker = "local";
// Transitions kept per endpoint for /status.
constexpr std::size_t kTransitionHistory = 10;

// The probes of one endpoint that a reader has not seen yet.
struct EndpointProbes {
  std::string pool;
  std::string address;
  std::vector<ProbeTick> ticks;  // oldest first
};

class HealthMonitor {
 public:
  using Listener = std::function<void(std::shared_ptr<const HealthSnapshot>)>;

  // `registry`, `clock` and `logger` must outlive the monitor.
  HealthMonitor(const ProbeRegistry& registry, const base::Clock& clock, base::Logger& logger, Listener listener);
  ~HealthMonitor();
  HealthMonitor(const HealthMonitor&) = delete;
  HealthMonitor& operator=(const HealthMonitor&) = delete;

  // Replaces the monitored set (first call: starts it). Endpoints whose pool and address
  // stay keep their state, counters and override. Fails, changing nothing, when a probe
  // cannot be created.
  base::Status configure(const std::vector<MonitoredEndpoint>& endpoints);
  void stop();

  // Blocks until every wait-for-first-check endpoint has a verdict or `limit` passes.
  bool wait_for_first_verdicts(std::chrono::milliseconds limit);
  // A remote vantage's verdict (docs/cluster.md); kNotFound when the pool has no such
  // endpoint. forget_vantage: its verdict expired or was deleted.
  base::Status report_vantage(const std::string& pool, const std::string& address, const std::string& vantage,
                              HealthState state, const std::string& reason);
  base::Status forget_vantage(const std::string& pool, const std::string& address, const std::string& vantage);
  // false: configure() starts no checker here, verdicts come only through report_vantage
  // (`cluster.local-checker: false`). Call before the first configure().
  void set_local_probes(bool on) { local_probes_ = on; }
  // Tracks, per endpoint, the vantages that disagree with the majority for longer than
  // `suspect_after` (vantage_suspicion.h; `cluster.suspect-after`), logs each change
  // (cluster.vantage_suspect, cluster.vantage_trusted) and puts the flags in reports().
  // Report only: answers do not change. Off until called.
  void set_suspect_after(std::chrono::milliseconds suspect_after);

  // kNotFound when the pool has no such endpoint.
  base::Status set_override(const std::string& pool, const std::string& address, Override value);

  std::shared_ptr<const HealthSnapshot> snapshot() const;
  std::vector<EndpointReport> reports() const;
  // Every endpoint's probes of the last hour with a sequence above `after` (0: all kept);
  // endpoints without any are left out. `last` is set to the newest sequence handed out, the
  // `after` of the next call.
  std::vector<EndpointProbes> probes_after(std::uint64_t after, std::uint64_t& last) const;

  // Called after every probe result, on the checker's thread with the monitor's lock held:
  // it must return quickly and must not call the monitor. Set before the first configure().
  using VerdictObserver = std::function<void(const VantageVerdict&)>;
  void set_verdict_observer(VerdictObserver observer) { verdict_observer_ = std::move(observer); }

 private:
  struct Entry;

  void on_result(Entry& entry, std::size_t check, const ProbeResult& result);
  void changed(Entry& entry, const std::string& reason);  // with mutex_ held
  void track_suspicion(Entry& entry);                      // with mutex_ held
  // Marks a change to publish (with mutex_ held); returns its sequence number.
  std::uint64_t request_publish();
  // Blocks until the change `sequence` has been published (without mutex_ held).
  void wait_published(std::uint64_t sequence);
  void publish_loop();
  void tick_loop();
  void stop_checkers(std::vector<std::unique_ptr<Checker>>& checkers);

  const ProbeRegistry& registry_;
  const base::Clock& clock_;
  base::Logger& logger_;
  Listener listener_;
  VerdictObserver verdict_observer_;

  mutable std::mutex mutex_;
  std::condition_variable verdicts_;
  std::vector<std::unique_ptr<Entry>> entries_;  // sorted by (pool, address)
  std::shared_ptr<const HealthSnapshot> snapshot_;
  std::uint64_t version_ = 0;
  std::uint64_t probe_sequence_ = 0;  // of the last ProbeTick recorded
  std::uint64_t requested_ = 0;   // changes asked to be published
  std::uint64_t published_ = 0;   // changes whose snapshot the listener has seen
  std::optional<std::chrono::steady_clock::time_point> oldest_pending_;
  std::condition_variable publish_wake_;
  std::condition_variable published_cv_;
  std::thread publisher_;
  std::chrono::milliseconds tick_period_{1000};
  bool stopping_ = false;
  bool local_probes_ = true;
  std::optional<std::chrono::milliseconds> suspect_after_;  // guarded by mutex_; nullopt: not tracked

  std::vector<std::unique_ptr<Checker>> checkers_;  // touched only by configure/stop
  std::thread ticker_;
  std::condition_variable tick_wake_;
};

}  // namespace cutover::health
