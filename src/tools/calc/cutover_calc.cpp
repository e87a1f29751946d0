// Cutover arithmetic (docs/tools.md, "cutover calc") and its table and JSON forms.
#include "tools/calc/cutover_calc.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "health/detection.h"
#include "tools/report/text_table.h"

namespace cutover::tools {
namespace {

// Measured terms carry the lab's microseconds; the table shows milliseconds at most.
double to_millis(double seconds) { return std::round(seconds * 1000) / 1000; }

std::string seconds_text(double seconds) {
  if (!std::isfinite(seconds)) return "unbounded";
  return fmt::format("{:g} s", to_millis(seconds));
}

std::string range_text(double low, double high) {
  if (low == high) return seconds_text(low);
  return fmt::format("{:g} to {}", to_millis(low), seconds_text(high));
}

nlohmann::json seconds_json(double seconds) {
  if (!std::isfinite(seconds)) return nullptr;  // JSON has no infinity: null means unbounded
  return seconds;
}

}  // namespace

std::optional<std::string> validate(const CalcInput& input) {
  if (input.fall < 1) return "--fall must be at least 1";
  if (input.quorum < 0) return "--quorum must be at least 1";
  for (double value : {input.interval, input.timeout, input.ttl, input.propagation, input.client_cache,
                       input.connection_reuse, input.stale_window, input.publish_latency}) {
    if (value < 0 || std::isnan(value)) return "durations must be zero or more seconds";
  }
  if (input.resolver_floor && *input.resolver_floor < 0) return "--resolver-floor must be zero or more";
  if (input.resolver_cap && *input.resolver_cap < 0) return "--resolver-cap must be zero or more";
  return std::nullopt;
}

CalcResult compute_cutover(const CalcInput& input) {
  CalcResult result;
  // The first failing probe starts between 0 and I after the failure; the F-th starts
  // (F - 1) I after the first and fails T later (docs/pools.md, "Detection").
  using Seconds = std::chrono::duration<double>;
  auto detection = health::detection_range(Seconds(input.interval), Seconds(input.timeout), input.fall);
  if (input.quorum > 0) {
    // Remote checkers: the K-th fastest vantage's window, plus its verdict's way to the server.
    detection = health::quorum_detection_range(detection, Seconds(input.publish_latency));
    health::QuorumRule rule{health::QuorumRule::Kind::kQuorum, static_cast<std::size_t>(input.quorum), 0};
    result.notes.push_back(health::quorum_detection_rule(rule) +
                           "; the vantages' probe phases are not aligned, so D_min stays (F-1)*I+T");
    result.notes.push_back(input.publish_latency_assumed
                               ? fmt::format("L = {:g} s (checker publish + server watch) is the default, a margin above the "
                                             "loopback measurement (max 11 ms, docs/cluster.md); give --publish-latency",
                                             input.publish_latency)
                               : fmt::format("L = {:g} s (checker publish + server watch) as given", input.publish_latency));
  }
  result.detection_min = detection.min.count();
  result.detection_max = detection.max.count();

  double honoured_ttl = input.ttl;
  if (input.resolver_floor && honoured_ttl < *input.resolver_floor) {
    honoured_ttl = *input.resolver_floor;
    result.notes.push_back(fmt::format("resolver floor raises the {:g} s TTL to {:g} s", input.ttl, honoured_ttl));
  }
  if (input.resolver_cap && honoured_ttl > *input.resolver_cap) {
    result.notes.push_back(fmt::format("resolver cap lowers the honoured TTL from {:g} s to {:g} s", honoured_ttl,
                                       *input.resolver_cap));
    honoured_ttl = *input.resolver_cap;
  }
  result.cache_max = honoured_ttl + input.stale_window;
  if (input.stale_window > 0) {
    result.notes.push_back(fmt::format(
        "stale window adds up to {:g} s, only while the resolver cannot refresh from the authoritative",
        input.stale_window));
  }

  // A resolver whose copy expired just before the change contributes nothing, so the
  // lower end of K (and of C and R) is zero; P is paid either way.
  result.terms = {
      {"detection", "D", result.detection_min, result.detection_max},
      {"propagation", "P", input.propagation, input.propagation},
      {"resolver cache", "K", 0, result.cache_max},
      {"client cache", "C", 0, input.client_cache},
      {"connection reuse", "R", 0, input.connection_reuse},
  };
  result.total_min = result.detection_min + input.propagation;
  result.total_max = result.detection_max + input.propagation + result.cache_max + input.client_cache +
                     input.connection_reuse;
  const Term* dominant = &result.terms.front();
  for (const auto& term : result.terms) {
    if (term.high > dominant->high) dominant = &term;
  }
  result.dominant = dominant->name;
  if (!input.client_profile.empty()) {
    result.notes.push_back(fmt::format("client cache from {} {}: {}", input.client_measured ? "lab client" : "profile",
                                       input.client_profile, input.client_basis));
  }
  if (!input.client_source.empty()) result.notes.push_back(input.client_source);
  return result;
}

std::string calc_to_text(const CalcInput& input, const CalcResult& result) {
  std::string out = fmt::format("inputs: I={:g} s, F={}, T={:g} s, TTL={:g} s", input.interval, input.fall,
                                input.timeout, input.ttl);
  if (input.quorum > 0) {
    out += fmt::format(", quorum {} of the vantages, L={:g} s{}", input.quorum, input.publish_latency,
                       input.publish_latency_assumed ? " (default)" : "");
  }
  out += "\n\n";
  TextTable table({"term", "", "range", "formula"});
  table.add_row({"detection", "D", range_text(result.detection_min, result.detection_max),
                 input.quorum > 0 ? "(F-1)*I+T .. F*I+T+L" : "(F-1)*I+T .. F*I+T"});
  table.add_row({"propagation", "P", seconds_text(input.propagation), "given"});
  table.add_row({"resolver cache", "K", range_text(0, result.cache_max), "0 .. TTL honoured (+ stale window)"});
  table.add_row({"client cache", "C", range_text(0, input.client_cache),
                 input.client_profile.empty() ? "given"
                 : (input.client_measured ? "lab " : "profile ") + input.client_profile});
  table.add_row({"connection reuse", "R", range_text(0, input.connection_reuse),
                 input.reuse_measured ? "lab " + input.client_profile + " (E11)" : "given"});
  table.add_row({"total", "", range_text(result.total_min, result.total_max), "D+P .. D+P+K+C+R"});
  out += table.render();
  out += fmt::format("\nD+K: {}\n", range_text(result.detection_min, result.detection_max + result.cache_max));
  out += fmt::format("dominant term: {}\n", result.dominant);
  for (const auto& note : result.notes) out += "note: " + note + "\n";
  return out;
}

nlohmann::json calc_to_json(const CalcInput& input, const CalcResult& result) {
  nlohmann::json terms = nlohmann::json::array();
  for (const auto& term : result.terms) {
    terms.push_back({{"name", term.name}, {"symbol", term.symbol}, {"min", term.low}, {"max", seconds_json(term.high)}});
  }
  return {
      {"inputs",
       {{"interval", input.interval},
        {"fall", input.fall},
        {"timeout", input.timeout},
        {"ttl", input.ttl},
        {"propagation", input.propagation},
        {"client_cache", seconds_json(input.client_cache)},
        {"client_profile", input.client_profile},
        {"client_measured", input.client_measured},
        {"client_basis", input.client_basis},
        {"client_source", input.client_source},
        {"connection_reuse", seconds_json(input.connection_reuse)},
        {"reuse_measured", input.reuse_measured},
        {"stale_window", input.stale_window},
        {"quorum", input.quorum > 0 ? nlohmann::json(input.quorum) : nlohmann::json(nullptr)},
        {"publish_latency", input.quorum > 0 ? nlohmann::json(input.publish_latency) : nlohmann::json(nullptr)},
        {"publish_latency_assumed", input.quorum > 0 && input.publish_latency_assumed}}},
      {"detection",
       {{"min", result.detection_min},
        {"max", result.detection_max},
        {"publish_latency", input.quorum > 0 ? input.publish_latency : 0.0}}},
      {"cache_max", result.cache_max},
      {"detection_plus_cache", {{"min", result.detection_min}, {"max", result.detection_max + result.cache_max}}},
      {"terms", terms},
      {"total", {{"min", result.total_min}, {"max", seconds_json(result.total_max)}}},
      {"dominant", result.dominant},
      {"notes", result.notes},
  };
}

}  // namespace cutover::tools
