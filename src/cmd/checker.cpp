// `cutover checker --config FILE --etcd URL[,URL...] --vantage NAME [--prefix /cutover/]`:
// probes every pool endpoint of the config from this host and publishes the verdicts to
// etcd for the servers' quorum (docs/cluster.md). Runs until SIGINT/SIGTERM; exits 2 when it
// cannot start (bad config, bad flags).
#include <signal.h>

#include <string>

#include <fmt/format.h>

#include "base/log.h"
#include "cluster/checker_agent.h"
#include "cmd/commands.h"
#include "cmd/output.h"
#include "cmd/stop_signals.h"
#include "config/config.h"

namespace cutover::cmd {
namespace {

struct CheckerFlags {
  std::string config;
  std::string etcd;
  std::string vantage;
  std::string prefix = cluster::kDefaultPrefix;
  Output output{"checker"};
};

ExitCode run_checker(const CheckerFlags& flags) {
  const Output& output = flags.output;
  if (!cluster::valid_vantage_name(flags.vantage)) {
    output.fail(ExitCode::kCouldNotRun, fmt::format("--vantage {}: expected 1 to 64 of A-Z a-z 0-9 . _ -", flags.vantage));
  }
  if (!flags.prefix.starts_with("/") || !flags.prefix.ends_with("/")) {
    output.fail(ExitCode::kCouldNotRun, fmt::format("--prefix {}: expected a key prefix that starts and ends with /", flags.prefix));
  }
  auto members = cluster::parse_etcd_urls(flags.etcd);
  if (!members) output.fail(ExitCode::kCouldNotRun, "--etcd: " + members.error().message);
  config::Config config;
  try {
    config = config::load_config_file(flags.config);
  } catch (const config::ConfigError& e) {
    output.fail(ExitCode::kCouldNotRun, e.what());
  }
  // Blocked before any thread starts, so only the wait below sees them.
  sigset_t signals = block_stop_signals();
  base::Logger logger;
  cluster::CheckerAgent agent(config, cluster::CheckerOptions{*members, flags.vantage, flags.prefix}, logger);
  if (auto started = agent.start(); !started) output.fail(ExitCode::kCouldNotRun, started.error().message);
  int signo = 0;
  sigwait(&signals, &signo);
  logger.info("checker.stop", {{"signal", std::to_string(signo)}, {"published", std::to_string(agent.published())}});
  agent.stop();
  return ExitCode::kOk;
}

}  // namespace

void add_checker_command(CLI::App& app) {
  auto flags = std::make_shared<CheckerFlags>();
  CLI::App* command = app.add_subcommand("checker", "Probe the config's pools from this vantage and publish the verdicts to etcd");
  command->add_option("--config", flags->config, "cutover.yaml whose pools to probe")->required();
  command->add_option("--etcd", flags->etcd, "etcd client URLs, comma-separated (http://HOST:PORT,...)")->required();
  command->add_option("--vantage", flags->vantage, "This checker's vantage name (A-Z a-z 0-9 . _ -)")->required();
  command->add_option("--prefix", flags->prefix, "etcd key prefix (default /cutover/)");
  flags->output.add_json_flag(*command, "Print the error document as JSON when it cannot start");
  command->callback([flags] { Output::finish(run_checker(*flags)); });
}

}  // namespace cutover::cmd
