// /metrics in the Prometheus text exposition format (version 0.0.4).
#include <fmt/format.h>

#include "dns/types.h"
#include "pool/status_report.h"

namespace cutover::pool {

std::string metric_label_value(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

namespace {

std::string endpoint_labels(const health::EndpointReport& report) {
  return fmt::format("pool=\"{}\",endpoint=\"{}\"", metric_label_value(report.pool), metric_label_value(report.address));
}

void header(std::string& out, const char* name, const char* type, const char* help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

}  // namespace

std::string render_metrics(const StatusInput& input, const RcodeCounts& rcodes) {
  std::string out;
  const auto& reports = *input.reports;
  header(out, "cutover_probes_total", "counter", "Health probes by result (error: the probe could not run).");
  for (const auto& report : reports) {
    std::string labels = endpoint_labels(report);
    out += fmt::format("cutover_probes_total{{{},result=\"pass\"}} {}\n", labels, report.stats.passes);
    out += fmt::format("cutover_probes_total{{{},result=\"fail\"}} {}\n", labels, report.stats.failures);
    out += fmt::format("cutover_probes_total{{{},result=\"error\"}} {}\n", labels, report.stats.errors);
  }
  header(out, "cutover_probe_latency_seconds", "histogram", "Health probe latency.");
  for (const auto& report : reports) {
    std::string labels = endpoint_labels(report);
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < health::kLatencyBuckets.size(); ++i) {
      cumulative += report.stats.latency_counts[i];
      out += fmt::format("cutover_probe_latency_seconds_bucket{{{},le=\"{}\"}} {}\n", labels,
                         health::kLatencyBuckets[i], cumulative);
    }
    cumulative += report.stats.latency_counts.back();
    out += fmt::format("cutover_probe_latency_seconds_bucket{{{},le=\"+Inf\"}} {}\n", labels, cumulative);
    out += fmt::format("cutover_probe_latency_seconds_sum{{{}}} {}\n", labels, report.stats.latency_sum_seconds);
    out += fmt::format("cutover_probe_latency_seconds_count{{{}}} {}\n", labels, cumulative);
  }
  header(out, "cutover_health_transitions_total", "counter", "Changes of an endpoint's effective state.");
  for (const auto& report : reports) {
    out += fmt::format("cutover_health_transitions_total{{{}}} {}\n", endpoint_labels(report), report.stats.transitions);
  }
  header(out, "cutover_endpoint_down_seconds_total", "counter",
         "Seconds the endpoint's effective state has been down since the server started.");
  for (const auto& report : reports) {
    out += fmt::format("cutover_endpoint_down_seconds_total{{{}}} {}\n", endpoint_labels(report),
                       static_cast<double>(report.down_total.count()) / 1000.0);
  }
  header(out, "cutover_endpoint_last_change_timestamp_seconds", "gauge",
         "Unix time of the endpoint's last change of effective state (0: none yet).");
  for (const auto& report : reports) {
    double at = 0;
    if (report.last_change) {
      at = std::chrono::duration<double>(report.last_change->time_since_epoch()).count();
    }
    out += fmt::format("cutover_endpoint_last_change_timestamp_seconds{{{}}} {:.3f}\n", endpoint_labels(report), at);
  }
  header(out, "cutover_endpoint_quorum_lost", "gauge",
         "1 while fewer vantages report than the pool's quorum needs (the last verdict is held).");
  for (const auto& report : *input.reports) {
    out += fmt::format("cutover_endpoint_quorum_lost{{{}}} {}\n", endpoint_labels(report), report.quorum_lost ? 1 : 0);
  }
  header(out, "cutover_endpoint_flaps_last_hour", "gauge",
         "Changes between up and down of the endpoint within the last hour.");
  for (const auto& report : reports) {
    out += fmt::format("cutover_endpoint_flaps_last_hour{{{}}} {}\n", endpoint_labels(report), report.flaps_last_hour);
  }
  header(out, "cutover_endpoint_state", "gauge", "1 for the endpoint's current effective state.");
  for (const auto& report : reports) {
    for (auto state : {health::HealthState::kUnknown, health::HealthState::kUp, health::HealthState::kDown}) {
      out += fmt::format("cutover_endpoint_state{{{},state=\"{}\"}} {}\n", endpoint_labels(report),
                         health::state_to_text(state), report.effective == state ? 1 : 0);
    }
  }
  header(out, "cutover_queries_total", "counter", "Queries answered, by response code.");
  for (std::size_t code = 0; code < rcodes.size(); ++code) {
    if (rcodes[code] == 0 && code != 0) continue;
    out += fmt::format("cutover_queries_total{{rcode=\"{}\"}} {}\n",
                       dns::rcode_to_text(static_cast<dns::Rcode>(code)), rcodes[code]);
  }
  header(out, "cutover_pool_queries_total", "counter", "Queries answered from a pool.");
  if (input.answers != nullptr) {
    for (const auto& pool : input.answers->pools()) {
      out += fmt::format("cutover_pool_queries_total{{pool=\"{}\"}} {}\n", metric_label_value(pool.pool),
                         pool.counters ? pool.counters->queries.load() : 0);
    }
    header(out, "cutover_pool_all_down", "gauge", "1 while no endpoint of the pool's family is healthy.");
    for (const auto& pool : input.answers->pools()) {
      for (const FamilyAnswer* family : pool.families()) {
        if (!family->configured) continue;
        out += fmt::format("cutover_pool_all_down{{pool=\"{}\",type=\"{}\"}} {}\n", metric_label_value(pool.pool),
                           dns::type_to_text(family->type), is_all_down(family->mode) ? 1 : 0);
      }
    }
    header(out, "cutover_pool_panic", "gauge",
           "1 while some but fewer endpoints of the pool's family than min-healthy are up (every endpoint is answered).");
    for (const auto& pool : input.answers->pools()) {
      for (const FamilyAnswer* family : pool.families()) {
        if (!family->configured) continue;
        out += fmt::format("cutover_pool_panic{{pool=\"{}\",type=\"{}\"}} {}\n", metric_label_value(pool.pool),
                           dns::type_to_text(family->type), family->mode == AnswerMode::kPanic ? 1 : 0);
      }
    }
    header(out, "cutover_pool_panics_total", "counter", "Times the pool's family entered the panic state.");
    for (const auto& pool : input.answers->pools()) {
      for (const FamilyAnswer* family : pool.families()) {
        if (!family->configured) continue;
        out += fmt::format("cutover_pool_panics_total{{pool=\"{}\",type=\"{}\"}} {}\n", metric_label_value(pool.pool),
                           dns::type_to_text(family->type), family->panics);
      }
    }
    // Steered pools (docs/steering.md): where each region's clients are answered from.
    header(out, "cutover_pool_region_away", "gauge",
           "1 while a steered pool's region is answered from another region or the whole pool (label from).");
    for (const auto& pool : input.answers->pools()) {
      for (const auto& region : pool.regions) {
        for (const FamilyAnswer* family : region.families()) {
          if (!family->configured) continue;
          out += fmt::format("cutover_pool_region_away{{pool=\"{}\",type=\"{}\",region=\"{}\",from=\"{}\"}} {}\n",
                             metric_label_value(pool.pool), dns::type_to_text(family->type),
                             metric_label_value(region.region),
                             family->region.empty() ? "whole-pool" : metric_label_value(family->region),
                             family->region == region.region ? 0 : 1);
        }
      }
    }
    header(out, "cutover_pool_endpoints_up", "gauge", "Endpoints of the pool's family serving (up, or unknown).");
    for (const auto& pool : input.answers->pools()) {
      for (const FamilyAnswer* family : pool.families()) {
        if (!family->configured) continue;
        out += fmt::format("cutover_pool_endpoints_up{{pool=\"{}\",type=\"{}\"}} {}\n", metric_label_value(pool.pool),
                           dns::type_to_text(family->type), family->up);
      }
    }
  }
  return out;
}

}  // namespace cutover::pool
