// `cutover monitor --config FILE [--once] [--json]`: watches names across their
// authoritatives and resolvers during a change window (docs/operations.md, "Monitor").
// Without --once it runs until SIGINT/SIGTERM and serves /metrics and /status. With --once
// it runs one round, prints it and exits 0 all agree, 1 a mismatch or a firing alert,
// 2 could not run (bad config, metrics address taken).
#include <signal.h>

#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "cmd/commands.h"
#include "cmd/output.h"
#include "config/config.h"
#include "monitor/monitor.h"

namespace cutover::cmd {
namespace {

struct MonitorOptions {
  std::string config;
  bool once = false;
  Output output{"monitor"};
};

std::string round_to_text(const monitor::RoundReport& report) {
  std::string out;
  for (const auto& outcome : report.outcomes) {
    // The sweep's own last line speaks of the sources only; say here which mismatch it is.
    std::string verdict = "no mismatch";
    if (outcome.mismatch) {
      verdict = outcome.expected_matches == false ? "MISMATCH: the expected answer is not served"
                                                  : "MISMATCH: the sources differ";
    }
    out += fmt::format("{} {}: {}\n", outcome.name, outcome.type, verdict);
    out += tools::sweep_round_to_text(outcome.round);
  }
  for (const auto& alert : report.alerts) {
    out += fmt::format("alert {} {} {}: {}\n", alert.firing ? "firing" : "pending", alert.rule, alert.subject,
                       alert.message);
  }
  return out;
}

// One line per alert transition on stderr: key=value, or with --json one JSON object.
void log_events(const std::vector<monitor::AlertEvent>& events, bool json) {
  for (const auto& event : events) {
    if (json) {
      nlohmann::json line = monitor::alert_event_to_json(event);
      line["event"] = "monitor.alert";
      fmt::print(stderr, "{}\n", line.dump());
      continue;
    }
    fmt::print(stderr, "monitor.alert state={} rule={} subject=\"{}\" message=\"{}\"\n", event.state, event.rule,
               event.subject, event.message);
  }
}

ExitCode run_once(monitor::Monitor& watcher, const monitor::MonitorConfig& config, const Output& output) {
  const bool json = output.json();
  monitor::RoundReport report = watcher.run_round();
  log_events(report.events, json);
  if (json) {
    monitor::MonitorSnapshot snapshot = watcher.snapshot();
    output.document(monitor::status_json(snapshot));
  } else {
    fmt::print("{}", round_to_text(report));
  }
  if (config.webhook) {
    // Every attempt and every backoff, with a second to spare: bounded by the config.
    auto limit = config.webhook->timeout * (config.webhook->retries + 1) * 2 +
                 config.webhook->backoff * ((1 << config.webhook->retries) - 1) + std::chrono::seconds(1);
    if (!watcher.flush_webhook(std::chrono::duration_cast<std::chrono::milliseconds>(limit))) {
      fmt::print(stderr, "cutover monitor: the webhook did not take every alert in time\n");
    }
  }
  return report.all_agree && !report.any_firing ? ExitCode::kOk : ExitCode::kFindings;
}

ExitCode run_monitor(const MonitorOptions& options) {
  const Output& output = options.output;
  monitor::MonitorConfig config;
  try {
    config = monitor::read_monitor_config(options.config);
  } catch (const config::ConfigError& e) {
    output.fail(ExitCode::kCouldNotRun, e.what());
  }
  base::RealClock clock;
  if (options.once) {
    monitor::Monitor watcher(config, clock);
    return run_once(watcher, config, output);
  }
  // Blocked before any thread starts, so only sigwait below sees them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  monitor::Monitor watcher(config, clock);
  if (auto started = watcher.start_http(); !started) {
    output.fail(ExitCode::kCouldNotRun, "metrics listener: " + started.error().message);
  }
  fmt::print(stderr, "monitor.listen address={}:{} watches={} interval={}ms\n", config.metrics_host,
             watcher.metrics_port(), config.watches.size(), config.interval.count());
  const bool json = output.json();
  std::thread rounds([&watcher, json] {
    watcher.run([json](const monitor::RoundReport& report) { log_events(report.events, json); });
  });
  int signo = 0;
  sigwait(&signals, &signo);
  fmt::print(stderr, "monitor.stop signal={}\n", signo);
  watcher.stop();
  rounds.join();
  // With --json stdout holds one document: the state at the stop.
  if (json) output.document(monitor::status_json(watcher.snapshot()));
  return ExitCode::kOk;
}

}  // namespace

void add_monitor_command(CLI::App& app) {
  auto options = std::make_shared<MonitorOptions>();
  CLI::App* command = app.add_subcommand("monitor", "Watch names across authoritatives and resolvers; metrics and alerts");
  command->add_option("--config", options->config, "monitor.yaml (docs/operations.md, Monitor)")->required();
  command->add_flag("--once", options->once, "Run one round, print it and exit (0 agree, 1 mismatch or alert)");
  options->output.add_json_flag(*command, "Print the round (--once; at the stop otherwise) and the alert log lines as JSON");
  command->callback([options] { Output::finish(run_monitor(*options)); });
}

}  // namespace cutover::cmd
