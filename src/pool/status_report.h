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

#include "base/clock.h"
#include "health/health_snapshot.h"
#include "pool/pool_answers.h"
#include "pool/pool_spec.h"

namespace cutover::pool {

struct StatusInput {
  const std::vector<PoolSpec>* specs = nullptr;
  const std::vector<health::EndpointReport>* reports = nullptr;
  const PoolAnswers* answers = nullptr;
  // The negative TTL of the zone holding a name (what NODATA answers make resolvers cache).
  std::function<std::optional<std::uint32_t>(const dns::Name&)> negative_ttl;
  const base::Clock* clock = nullptr;
};

// Queries answered, by response code (index: the rcode value, 0..15).
using RcodeCounts = std::array<std::uint64_t, 16>;

std::string render_status_json(const StatusInput& input);
std::string render_metrics(const StatusInput& input, const RcodeCounts& rcodes);

// "2024-05-01T12:00:00.123Z".
std::string format_utc(std::chrono::system_clock::time_point when);

}  // namespace cutover::pool
