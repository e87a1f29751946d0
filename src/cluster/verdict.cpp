// Verdict keys and their JSON: one document per (pool, endpoint, vantage).
#include "cluster/verdict.h"

#include <algorithm>
#include <cctype>
#include <ctime>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace cutover::cluster {
namespace {

std::string rfc3339(std::chrono::system_clock::time_point at) {
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
  std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                     utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis % 1000));
}

bool parse_state(const std::string& text, health::HealthState& out) {
  if (text == "up") out = health::HealthState::kUp;
  else if (text == "down") out = health::HealthState::kDown;
  else if (text == "unknown") out = health::HealthState::kUnknown;
  else return false;
  return true;
}

}  // namespace

bool valid_vantage_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
  });
}

std::string verdicts_prefix(const std::string& prefix) { return prefix + "verdicts/"; }

std::string verdict_key(const std::string& prefix, const std::string& pool, const std::string& endpoint,
                        const std::string& vantage) {
  return fmt::format("{}{}/{}/{}", verdicts_prefix(prefix), pool, endpoint, vantage);
}

PublishedVerdict verdict_of(const health::VantageVerdict& verdict, const std::string& vantage) {
  PublishedVerdict out;
  out.pool = verdict.pool;
  out.endpoint = verdict.address;
  out.vantage = vantage;
  out.state = verdict.state;
  std::string which = verdict.checks.size() > 1 ? fmt::format("checks[{}] ", verdict.check) : "";
  out.reason = fmt::format("{}{}: {}", which, health::outcome_to_text(verdict.result.outcome), verdict.result.detail);
  out.latency_ms = static_cast<double>(verdict.result.latency.count()) / 1000.0;
  out.probe_time = rfc3339(verdict.probe_at);
  out.interval_ms = verdict.interval.count();
  for (const auto& check : verdict.checks) {
    out.checks.push_back(CheckCounters{check.state, check.consecutive_passes, check.consecutive_failures});
  }
  return out;
}

std::string verdict_to_json(const PublishedVerdict& verdict) {
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& check : verdict.checks) {
    checks.push_back({{"state", health::state_to_text(check.state)}, {"passes", check.passes}, {"failures", check.failures}});
  }
  nlohmann::json doc{{"pool", verdict.pool},
                     {"endpoint", verdict.endpoint},
                     {"vantage", verdict.vantage},
                     {"state", health::state_to_text(verdict.state)},
                     {"reason", verdict.reason},
                     {"latency_ms", verdict.latency_ms},
                     {"probe_time", verdict.probe_time},
                     {"interval_ms", verdict.interval_ms},
                     {"checks", checks}};
  return doc.dump();
}

base::Result<PublishedVerdict> parse_verdict(const std::string& prefix, const std::string& key, const std::string& value) {
  const std::string base = verdicts_prefix(prefix);
  auto bad = [&](const std::string& why) {
    return base::make_error(base::ErrorCode::kMalformed, fmt::format("etcd key {}: {}", key, why));
  };
  if (!key.starts_with(base)) return bad("not under " + base);
  std::string rest = key.substr(base.size());
  auto first = rest.find('/');
  auto last = rest.rfind('/');
  if (first == std::string::npos || first == last) return bad("expected POOL/ENDPOINT/VANTAGE after " + base);
  PublishedVerdict out;
  out.pool = rest.substr(0, first);
  out.endpoint = rest.substr(first + 1, last - first - 1);
  out.vantage = rest.substr(last + 1);
  if (out.pool.empty() || out.endpoint.empty() || !valid_vantage_name(out.vantage)) {
    return bad("expected POOL/ENDPOINT/VANTAGE with a vantage of [A-Za-z0-9._-]");
  }
  auto doc = nlohmann::json::parse(value, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return bad("the value is not a JSON object");
  if (!doc.contains("state") || !doc["state"].is_string() || !parse_state(doc["state"].get<std::string>(), out.state)) {
    return bad("state: expected up, down or unknown");
  }
  if (doc.contains("reason") && doc["reason"].is_string()) out.reason = doc["reason"].get<std::string>();
  if (doc.contains("latency_ms") && doc["latency_ms"].is_number()) out.latency_ms = doc["latency_ms"].get<double>();
  if (doc.contains("probe_time") && doc["probe_time"].is_string()) out.probe_time = doc["probe_time"].get<std::string>();
  if (doc.contains("interval_ms") && doc["interval_ms"].is_number_integer()) out.interval_ms = doc["interval_ms"].get<std::int64_t>();
  if (doc.contains("checks") && doc["checks"].is_array()) {
    for (const auto& check : doc["checks"]) {
      if (!check.is_object()) continue;
      CheckCounters counters;
      if (check.contains("state") && check["state"].is_string()) parse_state(check["state"].get<std::string>(), counters.state);
      if (check.contains("passes") && check["passes"].is_number_integer()) counters.passes = check["passes"].get<int>();
      if (check.contains("failures") && check["failures"].is_number_integer()) counters.failures = check["failures"].get<int>();
      out.checks.push_back(counters);
    }
  }
  return out;
}

}  // namespace cutover::cluster
