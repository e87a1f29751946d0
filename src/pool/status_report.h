// The observable state of every pool, rendered for the control API: /status as JSON and
// /metrics in the Prometheus text format. Pure functions of their inputs; thread-safe.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "health/health_monitor.h"
#include "health/health_snapshot.h"
#include "pool/pool_answers.h"
#include "pool/pool_spec.h"

namespace cutover::pool {

// The client terms one lab client measured (docs/tools.md, "Client terms from the lab"), as
// `cutover serve --lab-results` read them: C, its own cache, and R, connection reuse, in
// seconds; nullopt means no bound was seen within the run (unbounded).
struct LabClient {
  std::string id;
  std::string runtime;
  std::string version;
  std::optional<double> cache_seconds;
  std::string cache_basis;
  bool reuse_measured = false;  // an E11 case: without one, R is not known (counted as 0)
  std::optional<double> reuse_seconds;
  std::string reuse_basis;
};

struct LabRun {
  std::string source;  // "FILE (started ...)"; empty: no lab run was given
  std::vector<LabClient> clients;
};

struct StatusInput {
  const std::vector<PoolSpec>* specs = nullptr;
  const std::vector<health::EndpointReport>* reports = nullptr;
  const PoolAnswers* answers = nullptr;
  // The negative TTL of the zone holding a name (what NODATA answers make resolvers cache).
  std::function<std::optional<std::uint32_t>(const dns::Name&)> negative_ttl;
  const base::Clock* clock = nullptr;
  const LabRun* lab = nullptr;  // null or empty source: no lab run
  // Top-level members /status adds beside "pools" (a cluster's "cluster": src/cluster/).
  std::vector<std::pair<std::string, nlohmann::json>> sections;
};

// Queries answered, by response code (index: the rcode value, 0..15).
using RcodeCounts = std::array<std::uint64_t, 16>;

std::string render_status_json(const StatusInput& input);
// The console's probe feed: {"endpoints": [{"pool", "address", "ticks": [[UNIX_MS, RESULT,
// LATENCY_MS, CHECK], ...]}]}, oldest tick first; empty for no probes.
std::string render_probe_ticks_json(const std::vector<health::EndpointProbes>& probes);
std::string render_metrics(const StatusInput& input, const RcodeCounts& rcodes);
// A Prometheus label value with \\, " and newlines escaped.
std::string metric_label_value(const std::string& text);

// "2024-05-01T12:00:00.123Z".
std::string format_utc(std::chrono::system_clock::time_point when);

}  // namespace cutover::pool
