// `cutover explain [NAME]`: the cutover arithmetic of each pool, from the configuration
// alone: detection D in [(F-1)·I + T, F·I + T], the answer TTL (the worst resolver cache
// term K) and the worst case D + K the server is responsible for. Exit 2 for a bad config or
// an unknown pool.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "cmd/output.h"
#include "cmd/serve_config.h"
#include "pool/config/pool_config.h"
#include "pool/pool_detection.h"

namespace cutover::cmd {
namespace {

struct ExplainOptions {
  std::string config;
  std::string name;
  Output output{"explain"};
};

double seconds(std::chrono::milliseconds value) { return static_cast<double>(value.count()) / 1000.0; }

void explain_pool(const pool::PoolSpec& spec) {
  health::DetectionWindow window = pool::detection_window(spec);
  const health::CheckSettings& check = spec.check;
  std::printf("pool %s (%s, %s, %zu endpoints)\n", spec.name.c_str(), spec.owner.to_text().c_str(), spec.shape.c_str(),
              spec.endpoints.size());
  std::printf("  check       %s every I = %.3g s, timeout T = %.3g s, down after F = %d failures, up after R = %d passes\n",
              check.type.c_str(), seconds(check.interval), seconds(check.timeout), check.fall, check.rise);
  std::printf("  detection   D_min = (F-1)·I + T = %.3g s   D_max = F·I + T = %.3g s%s\n", seconds(window.d_min),
              seconds(window.d_max), spec.endpoints.empty() ? "" : "   (slowest endpoint check)");
  std::printf("  answer TTL  %u s: a resolver that cached just before the change keeps the old answer that long (K)\n",
              spec.ttl);
  std::printf("  worst case  D_max + TTL = %.3g s from failure until every resolver can see the change\n",
              seconds(window.worst_d_plus_k));
  if (spec.suspicion_ttl) {
    std::printf("  suspicion   on: after a first failed probe answers carry TTL <= time until the endpoint could be\n"
                "              declared down, so K after the verdict shrinks toward 0 for resolvers that asked late\n");
  }
  std::printf("  all down    %s\n", pool::all_down_to_text(spec.when_all_down));
  std::printf("  not counted propagation, client caches and open connections (P, C, R: docs/tools.md#cutover-calc)\n");
}

nlohmann::json pool_json(const pool::PoolSpec& spec) {
  health::DetectionWindow window = pool::detection_window(spec);
  const health::CheckSettings& check = spec.check;
  return {{"pool", spec.name},
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
  std::vector<pool::PoolSpec> chosen;
  for (const auto& spec : pool::config_pools(config)) {
    bool named = options.name.empty() || options.name == spec.name || options.name == spec.owner.to_text() ||
                 options.name + "." == spec.owner.to_text();
    if (named) chosen.push_back(spec);
  }
  if (chosen.empty()) {
    output.fail(ExitCode::kCouldNotRun,
                options.name.empty() ? "the configuration has no pools" : "no pool named " + options.name);
  }
  if (output.json()) {
    nlohmann::json pools = nlohmann::json::array();
    for (const auto& spec : chosen) pools.push_back(pool_json(spec));
    output.document({{"command", output.command()}, {"pools", pools}});
    return;
  }
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    if (i > 0) std::printf("\n");
    explain_pool(chosen[i]);
  }
}

}  // namespace

void add_explain_command(CLI::App& app) {
  auto options = std::make_shared<ExplainOptions>();
  auto* command = app.add_subcommand("explain", "Show each pool's detection window D, answer TTL and worst-case D + K");
  command->add_option("name", options->name, "Pool id or DNS name (default: every pool)");
  command->add_option("--config", options->config, "YAML config file (default: the embedded one)")
      ->check(CLI::ExistingFile);
  options->output.add_json_flag(*command, "Print each pool's terms as JSON (milliseconds)");
  command->callback([options] { run_explain(*options); });
}

}  // namespace cutover::cmd
