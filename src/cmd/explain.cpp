// `cutover explain [NAME]`: the cutover arithmetic of each pool, from the configuration
// alone: detection D in [(F-1)·I + T, F·I + T], the answer TTL (the worst resolver cache
// term K) and the worst case D + K the server is responsible for; with --client the client
// terms C and R too, from a lab run (--lab-results) or the paper's profiles; for a pool with
// `checkers:` the quorum rule and the publish-and-watch latency L. Exit 2 for a bad
// config, an unknown pool or an unknown client.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "cmd/lab_clients.h"
#include "cmd/output.h"
#include "cmd/serve_config.h"
#include "pool/answer_builder.h"
#include "pool/config/pool_config.h"
#include "pool/pool_detection.h"
#include "health/detection.h"

namespace cutover::cmd {
namespace {

struct ExplainOptions {
  std::string config;
  std::string name;
  std::string client;
  std::string lab_results;
  std::string origin_behaviour = "keep-open";
  std::optional<double> publish_latency;  // L in seconds; default health::kDefaultPublishLatency
  Output output{"explain"};
};

// The publish-and-watch latency L of a pool whose verdicts come from remote checkers
// (`checkers:`; docs/cluster.md, "Detection with a quorum").
struct Quorum {
  bool remote = false;  // the pool has `checkers:`
  std::chrono::milliseconds latency{0};
  bool assumed = false;
};

Quorum quorum_of(const pool::PoolSpec& spec, const std::optional<double>& publish_latency) {
  Quorum out;
  out.remote = pool::has_remote_checkers(spec);
  if (!out.remote) return out;
  out.assumed = !publish_latency;
  out.latency = publish_latency ? std::chrono::milliseconds(std::llround(*publish_latency * 1000))
                                : health::kDefaultPublishLatency;
  return out;
}

health::DetectionWindow window_of(const pool::PoolSpec& spec, const Quorum& quorum) {
  health::DetectionWindow window = pool::detection_window(spec);
  return quorum.remote ? health::with_publish_latency(window, quorum.latency) : window;
}

std::string seconds_or_unbounded(double value) {
  return std::isfinite(value) ? fmt::format("{:.3g} s", value) : "unbounded";
}

nlohmann::json seconds_json(double value) { return std::isfinite(value) ? nlohmann::json(value) : nullptr; }

double seconds(std::chrono::milliseconds value) { return static_cast<double>(value.count()) / 1000.0; }

void explain_pool(const pool::PoolSpec& spec, const std::optional<tools::ClientTerms>& client,
                  const std::string& terms_source, const Quorum& quorum) {
  health::DetectionWindow window = window_of(spec, quorum);
  const health::CheckSettings& check = spec.check;
  std::printf("pool %s (%s, %s, %zu endpoints)\n", spec.name.c_str(), spec.owner.to_text().c_str(), spec.shape.c_str(),
              spec.endpoints.size());
  std::printf("  check       %s every I = %.3g s, timeout T = %.3g s, down after F = %d failures, up after R = %d passes\n",
              check.type.c_str(), seconds(check.interval), seconds(check.timeout), check.fall, check.rise);
  std::printf("  detection   D_min = (F-1)·I + T = %.4g s   D_max = F·I + T%s = %.4g s%s\n", seconds(window.d_min),
              quorum.remote ? " + L" : "", seconds(window.d_max), spec.endpoints.empty() ? "" : "   (slowest endpoint check)");
  if (quorum.remote) {
    std::printf("  quorum      %s;\n"
                "              L = %.3g s, checker publish to etcd + this server's watch (%s);\n"
                "              the vantages' probe phases are not aligned, so D_min stays (F-1)·I + T (docs/cluster.md)\n",
                health::quorum_detection_rule(spec.checkers).c_str(), seconds(quorum.latency),
                quorum.assumed ? "the default, a margin above the loopback measurement: --publish-latency" : "given");
  }
  std::printf("  answer TTL  %u s: a resolver that cached just before the change keeps the old answer that long (K)\n",
              spec.ttl);
  std::printf("  worst case  D_max + TTL = %.4g s from failure until every resolver can see the change\n",
              seconds(window.worst_d_plus_k));
  if (spec.suspicion_ttl) {
    std::printf("  suspicion   on: after a first failed probe answers carry TTL <= time until the endpoint could be\n"
                "              declared down, so K after the verdict shrinks toward 0 for resolvers that asked late\n");
  }
  if (spec.min_healthy.enabled()) {
    std::size_t v4 = 0;
    std::size_t v6 = 0;
    std::size_t names = 0;  // hostname endpoints: one CNAME family
    for (const auto& endpoint : spec.endpoints) {
      (endpoint.target ? names : pool::is_ipv6_address(endpoint.address) ? v6 : v4)++;
    }
    std::string families;
    for (const auto& [type, count] : {std::pair<const char*, std::size_t>{"A", v4}, {"AAAA", v6}, {"CNAME", names}}) {
      if (count == 0) continue;
      families += fmt::format("{}{}: fewer than {} of {} up", families.empty() ? "" : "; ", type,
                              spec.min_healthy.threshold(count), count);
    }
    std::printf("  panic       min-healthy %s (%s): every endpoint not drained is answered,\n"
                "              so the survivors are not sent all the traffic\n",
                spec.min_healthy.to_text().c_str(), families.c_str());
  } else {
    std::printf("  panic       off (min-healthy unset): the shape answers even a single survivor\n");
  }
  std::printf("  all down    %s\n", pool::all_down_to_text(spec.when_all_down));
  if (!client) {
    std::printf("  not counted propagation, client caches and open connections (P, C, R: docs/tools.md#cutover-calc;\n"
                "              --client ID adds C and R)\n");
    return;
  }
  double reuse = client->reuse.value_or(0);
  std::printf("  client      C = %s, R = %s for %s: %s\n", seconds_or_unbounded(client->cache).c_str(),
              client->reuse ? seconds_or_unbounded(reuse).c_str() : "not measured (0 counted)", client->name.c_str(),
              client->basis.c_str());
  std::printf("  with client D_max + TTL + C + R = %s from failure until that client moves\n",
              seconds_or_unbounded(seconds(window.worst_d_plus_k) + client->cache + reuse).c_str());
  std::printf("  source      %s\n", terms_source.c_str());
  std::printf("  not counted propagation P (docs/tools.md#cutover-calc)\n");
}

nlohmann::json pool_json(const pool::PoolSpec& spec, const std::optional<tools::ClientTerms>& client,
                         const std::string& terms_source, const Quorum& quorum) {
  health::DetectionWindow window = window_of(spec, quorum);
  const health::CheckSettings& check = spec.check;
  nlohmann::json client_json = nullptr;
  if (client) {
    double reuse = client->reuse.value_or(0);
    client_json = {{"id", client->name},
                   {"cache_s", seconds_json(client->cache)},
                   {"reuse_s", client->reuse ? seconds_json(reuse) : nullptr},
                   {"reuse_measured", client->reuse.has_value()},
                   {"basis", client->basis},
                   {"measured_here", client->measured_here},
                   {"source", terms_source},
                   {"worst_with_client_ms",
                    seconds_json(static_cast<double>(window.worst_d_plus_k.count()) + 1000 * (client->cache + reuse))}};
  }
  nlohmann::json quorum_json = nullptr;
  if (quorum.remote) {
    quorum_json = {{"rule", health::quorum_detection_rule(spec.checkers)},
                   {"publish_latency_ms", quorum.latency.count()},
                   {"publish_latency_assumed", quorum.assumed}};
  }
  return {{"client", client_json},
          {"quorum", quorum_json},
          {"client_terms", terms_source},
          {"pool", spec.name},
          {"name", spec.owner.to_text()},
          {"shape", spec.shape},
          {"endpoints", spec.endpoints.size()},
          {"check", {{"type", check.type},
                     {"interval_ms", check.interval.count()},
                     {"timeout_ms", check.timeout.count()},
                     {"fall", check.fall},
                     {"rise", check.rise}}},
          {"d_min_ms", window.d_min.count()},
          {"d_max_ms", window.d_max.count()},
          {"ttl_s", spec.ttl},
          {"worst_d_plus_k_ms", window.worst_d_plus_k.count()},
          {"suspicion_ttl", spec.suspicion_ttl},
          {"min_healthy", spec.min_healthy.to_text()},
          {"when_all_down", pool::all_down_to_text(spec.when_all_down)}};
}

void run_explain(const ExplainOptions& options) {
  const Output& output = options.output;
  ServeOptions serve;
  serve.config = options.config;
  config::Config config;
  try {
    config = resolve_serve_config(serve);
  } catch (const config::ConfigError& e) {
    output.fail(ExitCode::kCouldNotRun, e.what());
  }
  std::vector<tools::MeasuredClient> measured = load_lab_clients(options.lab_results, output, options.origin_behaviour);
  std::optional<tools::ClientTerms> client;
  if (!options.client.empty()) {
    client = tools::find_client_terms(options.client, measured);
    if (!client) {
      output.fail(ExitCode::kCouldNotRun,
                  "--client '" + options.client + "' is not a known client (" + known_client_names(measured) + ")");
    }
  }
  std::string terms_source = client && !client->measured_here ? tools::client_terms_source({})
                                                              : tools::client_terms_source(measured);
  std::vector<pool::PoolSpec> chosen;
  for (const auto& spec : pool::config_pools(config)) {
    bool named = options.name.empty() || options.name == spec.name || options.name == spec.owner.to_text() ||
                 options.name + "." == spec.owner.to_text();
    if (named) chosen.push_back(spec);
  }
  if (options.publish_latency && !(*options.publish_latency >= 0)) {
    output.fail(ExitCode::kCouldNotRun, "--publish-latency must be zero or more seconds");
  }
  if (chosen.empty()) {
    output.fail(ExitCode::kCouldNotRun,
                options.name.empty() ? "the configuration has no pools" : "no pool named " + options.name);
  }
  if (output.json()) {
    nlohmann::json pools = nlohmann::json::array();
    for (const auto& spec : chosen) {
      pools.push_back(pool_json(spec, client, terms_source, quorum_of(spec, options.publish_latency)));
    }
    output.document({{"command", output.command()}, {"pools", pools}});
    return;
  }
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (i > 0) std::printf("\n");
    explain_pool(chosen[i], client, terms_source, quorum_of(chosen[i], options.publish_latency));
  }
}

}  // namespace

void add_explain_command(CLI::App& app) {
  auto options = std::make_shared<ExplainOptions>();
  auto* command = app.add_subcommand("explain", "Show each pool's detection window D, answer TTL and worst-case D + K");
  command->add_option("name", options->name, "Pool id or DNS name (default: every pool)");
  command->add_option("--config", options->config, "YAML config file (default: the embedded one)")
      ->check(CLI::ExistingFile);
  command->add_option("--client,-C", options->client,
                      "Add the client terms C and R of a lab client id (with --lab-results) or a profile");
  command->add_option("--lab-results", options->lab_results, "results.json of cutover lab run --clients (E6, E11)");
  command->add_option("--origin-behaviour", options->origin_behaviour, kOriginBehaviourHelp);
  command->add_option("--publish-latency", options->publish_latency,
                      "For pools with checkers: L, checker publish + server watch, seconds (default 0.05, above the 5-11 ms measured on loopback)");
  options->output.add_json_flag(*command, "Print each pool's terms as JSON (milliseconds)");
  command->callback([options] { run_explain(*options); });
}

}  // namespace cutover::cmd
