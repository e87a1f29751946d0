// What the rest of the server may know about endpoint health: an immutable snapshot,
// published whole on every change that can alter an answer, and detailed per-endpoint
// reports built on demand for /status and /metrics. Plain values; thread-compatible.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "health/check_settings.h"
#include "health/probe.h"
#include "health/quorum.h"
#include "health/state_machine.h"

namespace cutover::health {

struct EndpointView {
  std::string pool;
  std::string address;
  HealthState effective = HealthState::kUnknown;
  bool serving = true;
  std::optional<base::SteadyTime> suspicion_deadline;
  // Drained by the operator: out of answers even when a pool panics (min-healthy), which
  // otherwise answers its endpoints whatever their health.
  bool drained = false;
  // Fewer vantages report than the pool's quorum needs: `effective` is the last verdict,
  // held (docs/cluster.md); when-all-down does not apply on held verdicts.
  bool quorum_lost = false;
};

struct HealthSnapshot {
  std::uint64_t version = 0;
  std::vector<EndpointView> endpoints;  // sorted by (pool, address)

  const EndpointView* find(const std::string& pool, const std::string& address) const;
};

// Upper bounds (seconds) of the probe latency histogram buckets; +Inf is implied.
constexpr std::array<double, 10> kLatencyBuckets{0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5};

struct ProbeStats {
  std::uint64_t passes = 0;
  std::uint64_t failures = 0;
  std::uint64_t errors = 0;
  std::array<std::uint64_t, kLatencyBuckets.size() + 1> latency_counts{};  // last one: +Inf
  double latency_sum_seconds = 0;
  std::uint64_t transitions = 0;

  void record(const ProbeResult& result);
};

struct TransitionRecord {
  HealthState from = HealthState::kUnknown;
  HealthState to = HealthState::kUnknown;
  std::chrono::system_clock::time_point at;
  std::string reason;
};

// One check of an endpoint, for /status.
struct CheckReport {
  CheckSettings settings;
  std::string address;  // the address probed (check-address, else the endpoint's)
  std::uint16_t port = 0;
  CheckerView local;    // this server's view of the check
  std::optional<ProbeResult> last_result;
  std::optional<std::chrono::system_clock::time_point> last_probe_at;
};

struct EndpointReport {
  std::string pool;
  std::string address;
  std::uint16_t probe_port = 0;
  CheckSettings check;
  std::vector<CheckReport> checks;  // every check, the first being `check`
  Combine combine;
  HealthState health = HealthState::kUnknown;
  HealthState effective = HealthState::kUnknown;
  Override override_value = Override::kNone;
  bool serving = true;
  std::map<std::string, VantageView> checkers;  // verdict inputs, by checker (vantage)
  QuorumRule quorum;
  bool quorum_lost = false;
  // Whether the server tracks suspect vantages (a cluster: HealthMonitor::set_suspect_after),
  // and the vantages that disagree with the majority for longer than suspect-after.
  bool suspicion_tracked = false;
  std::set<std::string> suspect_vantages;
  std::optional<ProbeResult> last_result;
  std::optional<std::chrono::system_clock::time_point> last_probe_at;
  std::optional<int> cert_days_left;
  std::deque<TransitionRecord> transitions;  // most recent last
  ProbeStats stats;
  std::chrono::milliseconds down_total{0};  // time spent down since the server started
  std::size_t flaps_last_hour = 0;
  std::optional<std::chrono::system_clock::time_point> last_change;
  std::size_t probe_history = 0;  // probes kept of the last hour (HealthMonitor::probes_after)
  std::size_t probe_history_capacity = 0;
};

}  // namespace cutover::health
