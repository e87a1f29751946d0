// /status JSON: per pool its settings, detection arithmetic, current answer and per
// endpoint state with the evidence behind it (last probe, per-checker counters, transitions).
#include "pool/status_report.h"

#include <algorithm>
#include <ctime>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "pool/pool_detection.h"

namespace cutover::pool {
namespace {

using nlohmann::json;

double millis(std::chrono::microseconds value) { return static_cast<double>(value.count()) / 1000.0; }

json family_json(const PoolAnswer& pool, const FamilyAnswer& family, base::SteadyTime now) {
  json out;
  out["mode"] = mode_to_text(family.mode);
  out["addresses"] = family.addresses;
  out["per_query"] = family.per_query;
  out["up"] = family.up;
  out["endpoints"] = family.endpoints;
  out["panics"] = family.panics;
  out["ttl"] = pool.ttl_at(family, now);
  // Steered pools: the region whose endpoints are answered ("" = the whole pool).
  if (pool.networks) out["region"] = family.region;
  return out;
}

std::string quorum_to_text(const health::QuorumRule& rule) {
  switch (rule.kind) {
    case health::QuorumRule::Kind::kLocal: return "local";
    case health::QuorumRule::Kind::kQuorum: return fmt::format("{}", rule.quorum);
    case health::QuorumRule::Kind::kHealthyAbove: return fmt::format("healthy-above {}%", rule.healthy_above);
  }
  return "local";
}

json endpoint_json(const health::EndpointReport& report) {
  json out;
  out["address"] = report.address;
  out["port"] = report.probe_port;
  out["check"] = report.check.type;
  out["state"] = health::state_to_text(report.effective);
  out["health"] = health::state_to_text(report.health);
  out["override"] = health::override_to_text(report.override_value);
  out["serving"] = report.serving;
  json checkers = json::object();
  for (const auto& [name, view] : report.checkers) {
    // The counters of the first check: with one check, the vantage's own (as before `checks:`).
    const health::CheckerView first = view.checks.empty() ? health::CheckerView{} : view.checks.front();
    checkers[name] = {{"state", health::state_to_text(view.state)},
                      {"remote", view.remote},
                      {"consecutive_passes", first.consecutive_passes},
                      {"consecutive_failures", first.consecutive_failures}};
  }
  out["checkers"] = checkers;
  out["quorum"] = quorum_to_text(report.quorum);
  out["quorum_lost"] = report.quorum_lost;
  // The votes the quorum rule counted (health/quorum.h): vantages saying up, down, and both.
  std::size_t up = 0;
  std::size_t down = 0;
  for (const auto& [name, view] : report.checkers) {
    up += view.state == health::HealthState::kUp ? 1 : 0;
    down += view.state == health::HealthState::kDown ? 1 : 0;
  }
  out["quorum_votes"] = {{"reporting", up + down}, {"up", up}, {"down", down}};
  // Each vantage's verdict on the endpoint: this server's own probes (the checker "local")
  // and, with a cluster, every checker's (docs/cluster.md).
  json vantages = json::array();
  for (const auto& [name, view] : report.checkers) {
    json checks = json::array();
    for (const auto& check : view.checks) {
      checks.push_back({{"state", health::state_to_text(check.state)},
                        {"consecutive_passes", check.consecutive_passes},
                        {"consecutive_failures", check.consecutive_failures}});
    }
    json vantage = {{"name", name}, {"state", health::state_to_text(view.state)}, {"checks", checks}};
    // With a cluster: whether it disagrees with the majority past suspect-after (docs/cluster.md).
    if (report.suspicion_tracked) vantage["suspect"] = report.suspect_vantages.count(name) != 0;
    vantages.push_back(vantage);
  }
  out["vantages"] = vantages;
  out["combine"] = report.combine.to_text();
  json checks = json::array();
  for (const auto& check : report.checks) {
    json one = {{"type", check.settings.type},
                {"address", check.address},
                {"port", check.port},
                {"invert", check.settings.invert},
                {"state", health::state_to_text(check.local.state)},
                {"consecutive_passes", check.local.consecutive_passes},
                {"consecutive_failures", check.local.consecutive_failures}};
    if (check.last_result) {
      one["last_probe"] = {{"result", health::outcome_to_text(check.last_result->outcome)},
                           {"detail", check.last_result->detail},
                           {"at", check.last_probe_at ? format_utc(*check.last_probe_at) : ""}};
    } else {
      one["last_probe"] = nullptr;
    }
    checks.push_back(one);
  }
  out["checks"] = checks;
  out["seconds_down"] = static_cast<double>(report.down_total.count()) / 1000.0;
  out["flaps_last_hour"] = report.flaps_last_hour;
  out["last_change"] = report.last_change ? json(format_utc(*report.last_change)) : json(nullptr);
  if (report.last_result) {
    out["last_probe"] = {{"result", health::outcome_to_text(report.last_result->outcome)},
                         {"latency_ms", millis(report.last_result->latency)},
                         {"detail", report.last_result->detail},
                         {"at", report.last_probe_at ? format_utc(*report.last_probe_at) : ""}};
  } else {
    out["last_probe"] = nullptr;
  }
  if (report.cert_days_left) out["cert_days_left"] = *report.cert_days_left;
  json transitions = json::array();
  for (const auto& record : report.transitions) {
    transitions.push_back({{"from", health::state_to_text(record.from)},
                           {"to", health::state_to_text(record.to)},
                           {"at", format_utc(record.at)},
                           {"reason", record.reason}});
  }
  out["transitions"] = transitions;
  out["probe_history"] = {{"kept", report.probe_history}, {"capacity", report.probe_history_capacity}};
  out["probes"] = {{"pass", report.stats.passes}, {"fail", report.stats.failures}, {"error", report.stats.errors}};
  return out;
}

// The cutover window with each lab client's terms: D + K + C + R per client (the sum of
// docs/tools.md), null where a term had no bound within the run.
json client_terms_json(const LabRun* lab, const health::DetectionWindow& window) {
  if (lab == nullptr || lab->source.empty()) return {{"lab_run", nullptr}, {"clients", json::array()}};
  json clients = json::array();
  std::optional<double> worst_all = 0.0;
  for (const auto& client : lab->clients) {
    std::optional<double> c = client.cache_seconds;
    std::optional<double> r = client.reuse_measured ? client.reuse_seconds : std::optional<double>(0.0);
    std::optional<double> worst;
    if (c && r) worst = static_cast<double>(window.worst_d_plus_k.count()) + (*c + *r) * 1000.0;
    if (!worst) worst_all.reset();
    if (worst_all && worst) worst_all = std::max(*worst_all, *worst);
    clients.push_back({{"id", client.id},
                       {"runtime", client.runtime},
                       {"version", client.version},
                       {"c_s", c ? json(*c) : json(nullptr)},
                       {"c_basis", client.cache_basis},
                       {"r_measured", client.reuse_measured},
                       {"r_s", r ? json(*r) : json(nullptr)},
                       {"r_basis", client.reuse_basis},
                       {"worst_d_plus_k_plus_c_plus_r_ms", worst ? json(*worst) : json(nullptr)}});
  }
  return {{"lab_run", lab->source},
          {"clients", clients},
          {"worst_d_plus_k_plus_c_plus_r_ms", worst_all && !lab->clients.empty() ? json(*worst_all) : json(nullptr)}};
}

}  // namespace

std::string format_utc(std::chrono::system_clock::time_point when) {
  auto seconds = std::chrono::floor<std::chrono::seconds>(when);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(when - seconds).count();
  std::time_t time = std::chrono::system_clock::to_time_t(seconds);
  std::tm parts{};
  ::gmtime_r(&time, &parts);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", parts.tm_year + 1900, parts.tm_mon + 1,
                     parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec, ms);
}

std::string render_probe_ticks_json(const std::vector<health::EndpointProbes>& probes) {
  if (probes.empty()) return {};
  json endpoints = json::array();
  for (const auto& endpoint : probes) {
    json ticks = json::array();
    for (const auto& tick : endpoint.ticks) {
      auto at_ms = std::chrono::duration_cast<std::chrono::milliseconds>(tick.wall.time_since_epoch()).count();
      ticks.push_back(json::array({at_ms, health::outcome_to_text(tick.outcome), millis(tick.latency), tick.check}));
    }
    endpoints.push_back({{"pool", endpoint.pool}, {"address", endpoint.address}, {"ticks", ticks}});
  }
  return json{{"endpoints", endpoints}}.dump();
}

std::string render_status_json(const StatusInput& input) {
  json pools = json::array();
  base::SteadyTime now = input.clock->now();
  for (const auto& spec : *input.specs) {
    json pool;
    pool["name"] = spec.name;
    pool["owner"] = spec.owner.to_text();
    pool["shape"] = spec.shape;
    pool["ttl"] = spec.ttl;
    pool["when_all_down"] = all_down_to_text(spec.when_all_down);
    pool["min_healthy"] = spec.min_healthy.to_text();
    pool["suspicion_ttl"] = spec.suspicion_ttl;
    pool["serve"] = spec.serve == ServeMode::kMaterialize ? "materialize" : "per-query";
    if (!spec.views.empty()) pool["views"] = spec.views;  // answered in these views only
    if (spec.when_all_down == AllDownPolicy::kNoData && input.negative_ttl) {
      auto negative = input.negative_ttl(spec.owner);
      pool["nodata_negative_ttl"] = negative ? json(*negative) : json(nullptr);
    }
    health::DetectionWindow window = served_detection_window(spec);
    pool["detection"] = {{"d_min_ms", window.d_min.count()},
                         {"d_max_ms", window.d_max.count()},
                         {"ttl_s", window.ttl},
                         {"worst_d_plus_k_ms", window.worst_d_plus_k.count()}};
    // Remote checkers: the default L that d_max includes (docs/cluster.md).
    if (has_remote_checkers(spec)) pool["detection"]["publish_latency_ms"] = health::kDefaultPublishLatency.count();
    pool["client_terms"] = client_terms_json(input.lab, window);
    const PoolAnswer* answer = input.answers ? input.answers->find_pool(spec.name) : nullptr;
    json current = json::object();
    if (answer != nullptr) {
      for (const FamilyAnswer* family : answer->families()) {
        if (family->configured) current[dns::type_to_text(family->type)] = family_json(*answer, *family, now);
      }
      pool["queries"] = answer->counters ? answer->counters->queries.load() : 0;
    }
    pool["answer"] = current;
    // Steered pools: each region's answer, in the order the regions are listed
    // (docs/steering.md); `answer` above is the default region's.
    if (spec.steering.enabled()) {
      json steering = {{"networks", spec.steering.networks_file},
                       {"prefixes", spec.steering.networks ? spec.steering.networks->size() : 0},
                       {"default_region", spec.steering.default_region < spec.steering.regions.size()
                                                ? spec.steering.regions[spec.steering.default_region].name
                                                : std::string()}};
      json regions = json::array();
      if (answer != nullptr) {
        for (const auto& region : answer->regions) {
          json one = {{"name", region.region}};
          json families = json::object();
          for (const FamilyAnswer* family : region.families()) {
            if (family->configured) families[dns::type_to_text(family->type)] = family_json(*answer, *family, now);
          }
          one["answer"] = families;
          std::size_t index = spec.steering.find(region.region);
          if (index < spec.steering.regions.size()) one["order"] = spec.steering.regions[index].order;
          regions.push_back(one);
        }
      }
      steering["regions"] = regions;
      pool["steering"] = steering;
    }
    json endpoints = json::array();
    for (const auto& report : *input.reports) {
      if (report.pool == spec.name) endpoints.push_back(endpoint_json(report));
    }
    pool["endpoints"] = endpoints;
    pools.push_back(pool);
  }
  json document{{"pools", pools}};
  for (const auto& [key, section] : input.sections) document[key] = section;
  return document.dump(2) + "\n";
}

}  // namespace cutover::pool
