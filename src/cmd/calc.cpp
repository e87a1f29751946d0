// `cutover calc`: the cutover arithmetic of docs/tools.md ("cutover calc") from probe and cache settings.
// Exit 0 with the result, 2 when the inputs are unusable.
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "cmd/output.h"
#include "tools/calc/client_profiles.h"
#include "tools/calc/cutover_calc.h"
#include "tools/report/finding.h"

namespace cutover::cmd {
namespace {

struct CalcOptions {
  tools::CalcInput input;
  std::string client;  // a number of seconds or a profile name
  double floor = -1, cap = -1;
  bool list_profiles = false;
  Output output{"calc"};
};

void print_profiles(const Output& output) {
  if (output.json()) {
    nlohmann::json profiles = nlohmann::json::array();
    for (const auto& profile : tools::client_profiles()) {
      profiles.push_back({{"name", profile.name},
                          {"cache_seconds", profile.cache_seconds ? nlohmann::json(*profile.cache_seconds) : nullptr},
                          {"runtime", profile.runtime},
                          {"setting", profile.setting},
                          {"measured", profile.measured},
                          {"source", profile.source}});
    }
    output.document({{"command", output.command()}, {"profiles", profiles}});
    return;
  }
  for (const auto& profile : tools::client_profiles()) {
    std::string cache = profile.cache_seconds ? fmt::format("{:g} s", *profile.cache_seconds) : "unbounded";
    fmt::print("{:<20} {:>9}  {} ({}): {}\n", profile.name, cache, profile.runtime, profile.setting, profile.measured);
  }
  fmt::print("source: {}\n", tools::client_profiles().front().source);
}

void run_calc(CalcOptions& options) {
  const Output& output = options.output;
  if (options.list_profiles) {
    print_profiles(output);
    return;
  }
  tools::CalcInput& input = options.input;
  if (!options.client.empty()) {
    if (const auto* profile = tools::find_client_profile(options.client)) {
      input.client_cache = profile->cache_seconds.value_or(std::numeric_limits<double>::infinity());
      input.client_profile = std::string(profile->name);
    } else {
      try {
        input.client_cache = std::stod(options.client);
      } catch (const std::exception&) {
        output.fail(ExitCode::kCouldNotRun, "--client '" + options.client + "' is neither seconds nor a profile (see --profiles)");
      }
    }
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
  command->add_option("--client,-C", options->client, "Client cache: seconds or a profile name (see --profiles)");
  command->add_option("--reuse,-R", input.connection_reuse, "Connection reuse R, seconds");
  command->add_option("--resolver-floor", options->floor, "Resolver TTL floor (cache-min-ttl), seconds");
  command->add_option("--resolver-cap", options->cap, "Resolver TTL cap (cache-max-ttl), seconds");
  command->add_option("--stale-window", input.stale_window, "Resolver serve-stale window, seconds");
  options->output.add_json_flag(*command, "Print the result (or the profiles) as one JSON document");
  command->add_flag("--profiles", options->list_profiles, "List the client profiles and their source");
  command->callback([options] { run_calc(*options); });
}

}  // namespace cutover::cmd
