// `cutover calc`: the cutover arithmetic of docs/tools.md ("cutover calc") from probe and cache settings.
// Exit 0 with the result, 2 when the inputs are unusable.
#include <chrono>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "cmd/lab_clients.h"
#include "cmd/output.h"
#include "health/detection.h"
#include "tools/calc/client_profiles.h"
#include "tools/calc/cutover_calc.h"
#include "tools/report/finding.h"

namespace cutover::cmd {
namespace {

struct CalcOptions {
  tools::CalcInput input;
  std::string client;  // a number of seconds, a profile name or a lab client id
  std::string lab_results;
  std::string origin_behaviour = "keep-open";
  std::optional<double> reuse;  // --reuse as typed; wins over a measured R
  double floor = -1, cap = -1;
  std::optional<int> quorum;               // --quorum K
  std::optional<double> publish_latency;  // --publish-latency L
  bool list_profiles = false;
  Output output{"calc"};
};

void print_profiles(const Output& output, const std::vector<tools::MeasuredClient>& measured) {
  auto seconds_or_null = [](const std::optional<double>& value) { return value ? nlohmann::json(*value) : nullptr; };
  if (output.json()) {
    nlohmann::json lab = nlohmann::json::array();
    for (const auto& client : measured) {
      lab.push_back({{"id", client.id},
                     {"runtime", client.runtime},
                     {"version", client.version},
                     {"setting", client.setting},
                     {"cache_seconds", seconds_or_null(client.cache_seconds)},
                     {"cache_basis", client.cache_basis},
                     {"reuse_measured", client.reuse_measured},
                     {"reuse_seconds", client.reuse_measured ? seconds_or_null(client.reuse_seconds) : nullptr},
                     {"reuse_basis", client.reuse_basis},
                     {"source", client.source}});
    }
    nlohmann::json profiles = nlohmann::json::array();
    for (const auto& profile : tools::client_profiles()) {
      profiles.push_back({{"name", profile.name},
                          {"cache_seconds", profile.cache_seconds ? nlohmann::json(*profile.cache_seconds) : nullptr},
                          {"runtime", profile.runtime},
                          {"setting", profile.setting},
                          {"measured", profile.measured},
                          {"source", profile.source}});
    }
    output.document({{"command", output.command()}, {"profiles", profiles}, {"lab_clients", lab}});
    return;
  }
  for (const auto& client : measured) {
    std::string cache = client.cache_seconds ? fmt::format("{:.1f} s", *client.cache_seconds) : "unbounded";
    std::string reuse = !client.reuse_measured ? "R not measured"
                        : client.reuse_seconds ? fmt::format("R {:.1f} s", *client.reuse_seconds)
                                               : "R unbounded";
    fmt::print("{:<20} {:>9}  {} {} ({}), {}: {}\n", client.id, cache, client.runtime, client.version, client.setting,
               reuse, client.cache_basis);
  }
  if (!measured.empty()) fmt::print("lab: {}\n", measured.front().source);
  for (const auto& profile : tools::client_profiles()) {
    std::string cache = profile.cache_seconds ? fmt::format("{:g} s", *profile.cache_seconds) : "unbounded";
    fmt::print("{:<20} {:>9}  {} ({}): {}\n", profile.name, cache, profile.runtime, profile.setting, profile.measured);
  }
  fmt::print("source: {}\n", tools::client_profiles().front().source);
}

void run_calc(CalcOptions& options) {
  const Output& output = options.output;
  std::vector<tools::MeasuredClient> measured = load_lab_clients(options.lab_results, output, options.origin_behaviour);
  if (options.list_profiles) {
    print_profiles(output, measured);
    return;
  }
  tools::CalcInput& input = options.input;
  if (options.reuse) input.connection_reuse = *options.reuse;
  if (!options.client.empty()) {
    if (auto terms = tools::find_client_terms(options.client, measured)) {
      input.client_cache = terms->cache;
      input.client_profile = terms->name;
      input.client_basis = terms->basis;
      input.client_measured = terms->measured_here;
      if (terms->reuse && !options.reuse) {
        input.connection_reuse = *terms->reuse;
        input.reuse_measured = true;
      }
      input.client_source = terms->measured_here ? tools::client_terms_source(measured) : tools::client_terms_source({});
    } else {
      try {
        input.client_cache = std::stod(options.client);
      } catch (const std::exception&) {
        output.fail(ExitCode::kCouldNotRun, "--client '" + options.client + "' is neither seconds nor a known client (" +
                                                known_client_names(measured) + ")");
      }
    }
  } else {
    input.client_source = "client cache C not given (--client): " + tools::client_terms_source(measured);
  }
  // Either flag says the verdicts come from remote checkers through etcd (docs/cluster.md).
  if (options.quorum || options.publish_latency) {
    input.quorum = options.quorum.value_or(1);
    if (input.quorum < 1) output.fail(ExitCode::kCouldNotRun, "--quorum must be at least 1");
    input.publish_latency = options.publish_latency.value_or(
        std::chrono::duration<double>(health::kDefaultPublishLatency).count());
    input.publish_latency_assumed = !options.publish_latency;
  }
  if (options.floor >= 0) input.resolver_floor = options.floor;
  if (options.cap >= 0) input.resolver_cap = options.cap;
  if (auto problem = tools::validate(input)) output.fail(ExitCode::kCouldNotRun, *problem);
  tools::CalcResult result = tools::compute_cutover(input);
  if (output.json()) {
    output.document(tools::calc_to_json(input, result));
  } else {
    fmt::print("{}", tools::calc_to_text(input, result));
  }
}

}  // namespace

void add_calc_command(CLI::App& app) {
  auto options = std::make_shared<CalcOptions>();
  CLI::App* command =
      app.add_subcommand("calc", "Cutover arithmetic: detection + propagation + caches (docs/tools.md#cutover-calc)");
  auto& input = options->input;
  command->add_option("--interval,-I", input.interval, "Probe interval I, seconds");
  command->add_option("--fall,-F", input.fall, "Consecutive failures F that mark the endpoint down");
  command->add_option("--timeout,-T", input.timeout, "Probe timeout T, seconds");
  command->add_option("--ttl", input.ttl, "Record TTL, seconds");
  command->add_option("--propagation,-P", input.propagation, "Propagation P to the authoritative servers, seconds");
  command->add_option("--client,-C", options->client,
                      "Client cache: seconds, a profile name (see --profiles) or a lab client id (with --lab-results)");
  command->add_option("--reuse,-R", options->reuse, "Connection reuse R, seconds (wins over a measured R)");
  command->add_option("--lab-results", options->lab_results,
                      "results.json of cutover lab run --clients: C and R as measured on this machine (E6, E11)");
  command->add_option("--origin-behaviour", options->origin_behaviour, kOriginBehaviourHelp);
  command->add_option("--resolver-floor", options->floor, "Resolver TTL floor (cache-min-ttl), seconds");
  command->add_option("--resolver-cap", options->cap, "Resolver TTL cap (cache-max-ttl), seconds");
  command->add_option("--stale-window", input.stale_window, "Resolver serve-stale window, seconds");
  command->add_option("--quorum", options->quorum,
                      "Remote checkers: K vantages must say down (docs/cluster.md); adds the publish latency L to D");
  command->add_option("--publish-latency", options->publish_latency,
                      "Remote checkers: L, checker publish + server watch, seconds (default 0.05, above the 5-11 ms measured on loopback)");
  options->output.add_json_flag(*command, "Print the result (or the profiles) as one JSON document");
  command->add_flag("--profiles", options->list_profiles, "List the client profiles and their source");
  command->callback([options] { run_calc(*options); });
}

}  // namespace cutover::cmd
