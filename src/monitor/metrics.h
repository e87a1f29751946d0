// MonitorSnapshot: everything the monitor shows, copied out under its lock, and its two
// renderings: the Prometheus text exposition format (GET /metrics) and JSON (GET /status and
// `cutover monitor --once --json`). Plain values; the renderers are pure functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "monitor/agreement_history.h"
#include "monitor/alerts.h"
#include "monitor/plan_follow.h"
#include "monitor/watch_outcome.h"

namespace cutover::monitor {

// Per server, over the monitor's lifetime: the watched questions only (not the SOA and NS
// questions of discovery and serials).
struct ServerCounters {
  std::string role;  // "authoritative" or "resolver"
  std::uint64_t queries = 0;
  std::uint64_t timeouts = 0;                  // no reply: counted, never fatal
  std::map<std::string, std::uint64_t> rcodes;  // "NOERROR", "NXDOMAIN", "SERVFAIL", ...
};

struct WebhookStats {
  std::uint64_t delivered = 0;         // payloads the webhook accepted (2xx)
  std::uint64_t failed_attempts = 0;   // attempts that got no 2xx (each retry counts)
  std::uint64_t given_up = 0;          // payloads dropped after the last retry
  std::uint64_t dropped_queue_full = 0;
  std::size_t queued = 0;
};

struct MonitorSnapshot {
  std::uint64_t rounds = 0;
  double last_round_unix = 0;     // wall time the last round finished
  double last_round_seconds = 0;  // how long it took
  std::vector<WatchOutcome> outcomes;  // of the last round
  AgreementHistory agreement;          // of the last kAgreementRounds rounds
  std::map<std::string, ServerCounters> servers;
  std::vector<AlertStatus> alerts;     // pending and firing
  std::size_t alert_transitions = 0;
  bool webhook_configured = false;
  WebhookStats webhook;
  std::optional<PlanProgress> plan;  // with --plan
};

// Adds one round's watched questions to the per-server counters.
void count_round(const std::vector<WatchOutcome>& outcomes, std::map<std::string, ServerCounters>& servers);

std::string render_metrics(const MonitorSnapshot& snapshot);
nlohmann::json outcome_to_json(const WatchOutcome& outcome);
nlohmann::json status_json(const MonitorSnapshot& snapshot);
nlohmann::json alert_event_to_json(const AlertEvent& event);

}  // namespace cutover::monitor
