// A vantage's published verdict on one endpoint: its etcd key (docs/cluster.md, "Keys")
// and its JSON value, written by `cutover checker` and read by the servers' watch.
// Plain values and pure functions; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "health/health_monitor.h"

namespace cutover::cluster {

constexpr const char* kDefaultPrefix = "/cutover/";

// Vantage names go into keys: 1 to 64 of [A-Za-z0-9._-].
bool valid_vantage_name(std::string_view name);

// PREFIX verdicts/ POOL / ENDPOINT / VANTAGE
std::string verdicts_prefix(const std::string& prefix);
std::string verdict_key(const std::string& prefix, const std::string& pool, const std::string& endpoint,
                        const std::string& vantage);

struct CheckCounters {
  health::HealthState state = health::HealthState::kUnknown;
  int passes = 0;    // consecutive passes (rise counter)
  int failures = 0;  // consecutive failures (fall counter)
};

struct PublishedVerdict {
  std::string pool;
  std::string endpoint;
  std::string vantage;
  health::HealthState state = health::HealthState::kUnknown;
  std::string reason;  // "pass: HTTP 200", "checks[1] fail: ..."
  double latency_ms = 0;
  std::string probe_time;  // RFC 3339, UTC, milliseconds
  std::int64_t interval_ms = 0;
  std::vector<CheckCounters> checks;
};

PublishedVerdict verdict_of(const health::VantageVerdict& verdict, const std::string& vantage);
std::string verdict_to_json(const PublishedVerdict& verdict);
// The value at `key` under `prefix`; kMalformed naming what is wrong (a foreign key, bad JSON).
base::Result<PublishedVerdict> parse_verdict(const std::string& prefix, const std::string& key, const std::string& value);

}  // namespace cutover::cluster
