// `cutover checker --config FILE --etcd URL[,URL...] --vantage NAME [--prefix /cutover/]
// [--control ADDRESS:PORT [--token T]]`: probes every pool endpoint of the config from this
// host and publishes the verdicts to etcd for the servers' quorum (docs/cluster.md). With
// --control it serves GET /status (its cluster section, read by `cutover status`). Runs
// until SIGINT/SIGTERM; exits 2 when it cannot start (bad config, bad flags, port taken).
#include <signal.h>

#include <optional>
#include <string>

#include <fmt/format.h>

#include "base/log.h"
#include "cluster/checker_agent.h"
#include "cmd/commands.h"
#include "cmd/output.h"
#include "cmd/stop_signals.h"
#include "config/config.h"
#include "control/control_server.h"

namespace cutover::cmd {
namespace {

struct CheckerFlags {
  std::string config;
  std::string etcd;
  std::string vantage;
  std::string prefix = cluster::kDefaultPrefix;
  std::string control;  // ADDRESS:PORT of GET /status; empty: none
  std::string token;    // its bearer token (needed off loopback)
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
  std::optional<control::ControlServer> http;
  if (!flags.control.empty()) {
    auto listen = config::parse_control_listen(flags.control);
    if (!listen) output.fail(ExitCode::kCouldNotRun, "--control: " + listen.error().message);
    http.emplace(control::ControlOptions{.address = listen->host, .port = listen->port, .bearer_token = flags.token});
    http->get("/status", [&agent](const httplib::Request&, httplib::Response& response) {
      control::reply_json(response, 200, agent.status_json().dump());
    });
    if (auto started = http->start(); !started) {
      agent.stop();
      output.fail(ExitCode::kCouldNotRun, "--control " + flags.control + ": " + started.error().message);
    }
    logger.info("checker.control", {{"address", fmt::format("{}:{}", listen->host, http->port())}});
  }
  int signo = 0;
  sigwait(&signals, &signo);
  logger.info("checker.stop", {{"signal", std::to_string(signo)}, {"published", std::to_string(agent.published())}});
  if (http) http->stop();
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
  command->add_option("--control", flags->control, "ADDRESS:PORT to serve GET /status on (cutover status --control)");
  command->add_option("--token", flags->token, "Bearer token for --control (required off loopback)");
  flags->output.add_json_flag(*command, "Print the error document as JSON when it cannot start");
  command->callback([flags] { Output::finish(run_checker(*flags)); });
}

}  // namespace cutover::cmd
