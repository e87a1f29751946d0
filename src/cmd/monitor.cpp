// `cutover monitor --config FILE [--once] [--json]`: watches names across their
// authoritatives and resolvers during a change window (docs/operations.md, "Monitor").
// Without --once it runs until SIGINT/SIGTERM and serves /metrics and /status. With --once
// it runs one round, prints it and exits 0 all agree, 1 a mismatch or a firing alert,
// 2 could not run (bad config, metrics address taken).
// `cutover monitor --plan RUNBOOK.json [--config FILE]` follows a runbook of `cutover plan
// --json` (docs/operations.md, "Following a runbook") until every step is done: exit 0 every
// wait within the plan, 1 a wait longer than planned, a step done before its wait passed, or
// stopped before the end, 2 could not run.
#include <signal.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "cmd/commands.h"
#include "cmd/output.h"
#include "cmd/stop_signals.h"
#include "config/config.h"
#include "monitor/monitor.h"
#include "monitor/plan_follow.h"
#include "tools/plan/runbook_output.h"
#include "tools/probe/dns_probe.h"

namespace cutover::cmd {
namespace {

struct MonitorOptions {
  std::string config;
  std::string plan;
  std::string resolvers;
  std::string authoritatives;
  std::string interval;
  std::string max_duration;
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

void log_plan_events(const std::vector<monitor::PlanEvent>& events, const monitor::PlanProgress& progress, bool json) {
  for (const auto& event : events) {
    const std::string& title = progress.steps[event.step].title;
    if (json) {
      nlohmann::json line = {{"event", "monitor.plan"}, {"step", event.step + 1},       {"title", title},
                             {"kind", event.kind},      {"offset_seconds", event.at - progress.start_unix},
                             {"text", event.text}};
      fmt::print(stderr, "{}\n", line.dump());
      continue;
    }
    fmt::print(stderr, "monitor.plan step={} kind={} title=\"{}\" {}\n", event.step + 1, event.kind, title, event.text);
  }
}

ExitCode plan_exit(const monitor::PlanProgress& progress) {
  if (!progress.finished) return ExitCode::kFindings;
  for (const auto& step : progress.steps) {
    if (step.late || step.early) return ExitCode::kFindings;
  }
  return ExitCode::kOk;
}

std::chrono::milliseconds duration_option(const Output& output, const std::string& flag, const std::string& text) {
  auto value = config::parse_duration(text);
  if (!value || value->count() <= 0) output.fail(ExitCode::kCouldNotRun, fmt::format("{} '{}': expected a duration such as 500ms, 10s, 2h", flag, text));
  return *value;
}

// `--plan`: the runbook, and the places to ask from the flags, the config or the runbook.
monitor::PlanFollower prepare_plan(const MonitorOptions& options, monitor::MonitorConfig& config) {
  const Output& output = options.output;
  std::ifstream in(options.plan);
  if (!in) output.fail(ExitCode::kCouldNotRun, fmt::format("{}: cannot read the file", options.plan));
  nlohmann::json document = nlohmann::json::parse(in, nullptr, false);
  if (document.is_discarded()) {
    output.fail(ExitCode::kCouldNotRun, fmt::format("{}: not JSON (write it with cutover plan --json)", options.plan));
  }
  auto book = tools::runbook_from_json(document);
  if (!book) output.fail(ExitCode::kCouldNotRun, fmt::format("{}: {}", options.plan, book.error().message));
  std::string resolvers = options.resolvers;
  if (resolvers.empty() && config.resolvers.empty()) {
    for (const auto& item : book->resolvers) resolvers += (resolvers.empty() ? "" : ",") + item;
  }
  if (!resolvers.empty()) {
    auto parsed = tools::parse_server_list(resolvers, 53);
    if (!parsed) output.fail(ExitCode::kCouldNotRun, "--resolvers: " + parsed.error().message);
    config.resolvers = *parsed;
  }
  if (config.resolvers.empty()) {
    output.fail(ExitCode::kCouldNotRun,
                "no resolvers to watch: give --resolvers, `resolvers:` in the config, or plan with --resolvers");
  }
  if (!options.authoritatives.empty()) {
    auto parsed = tools::parse_server_list(options.authoritatives, config.auth_port);
    if (!parsed) output.fail(ExitCode::kCouldNotRun, "--auth: " + parsed.error().message);
    config.authoritatives = *parsed;
  }
  if (!options.interval.empty()) config.interval = duration_option(output, "--interval", options.interval);
  // A change is seen one round late at most, each question bounded by timeout x tries.
  const double slack = std::chrono::duration<double>(config.interval + config.timeout * config.tries).count();
  return monitor::PlanFollower(std::move(*book), slack);
}

// Rounds until every step is done, a signal, or --max-duration; then the step table.
ExitCode follow_plan(const MonitorOptions& options, monitor::MonitorConfig config, monitor::PlanFollower follower) {
  const Output& output = options.output;
  const bool json = output.json();
  std::optional<std::chrono::milliseconds> limit;
  if (!options.max_duration.empty()) limit = duration_option(output, "--max-duration", options.max_duration);
  // Blocked before any thread starts, so only the wait below sees them.
  sigset_t signals = block_stop_signals();
  base::RealClock clock;
  monitor::Monitor watcher(config, clock);
  watcher.follow(std::move(follower));
  const bool listen = !options.config.empty() && !options.once;
  if (listen) {
    if (auto started = watcher.start_http(); !started) {
      output.fail(ExitCode::kCouldNotRun, "metrics listener: " + started.error().message);
    }
    fmt::print(stderr, "monitor.listen address={}:{} interval={}ms\n", config.metrics_host, watcher.metrics_port(),
               config.interval.count());
  }
  fmt::print(stderr, "monitor.plan.start file={} steps={} interval={}ms\n", options.plan,
             watcher.snapshot().plan->steps.size(), config.interval.count());
  std::atomic<bool> finished{false};
  std::thread rounds([&] {
    watcher.run([&](const monitor::RoundReport& report) {
      log_events(report.events, json);
      log_plan_events(report.plan_events, *report.plan, json);
      if (report.plan->finished || options.once) {
        finished = true;
        watcher.stop();
      }
    });
  });
  const auto deadline = limit ? std::chrono::steady_clock::now() + *limit : std::chrono::steady_clock::time_point::max();
  const timespec poll{0, 200 * 1000 * 1000};
  while (!finished && std::chrono::steady_clock::now() < deadline) {
    if (int signo = sigtimedwait(&signals, nullptr, &poll); signo > 0) {
      fmt::print(stderr, "monitor.stop signal={}\n", signo);
      break;
    }
  }
  watcher.stop();
  rounds.join();
  monitor::MonitorSnapshot last = watcher.snapshot();
  if (json) {
    output.document(monitor::status_json(last));
  } else {
    fmt::print("{}", monitor::plan_progress_to_text(*last.plan));
  }
  return plan_exit(*last.plan);
}

ExitCode run_monitor(const MonitorOptions& options) {
  const Output& output = options.output;
  monitor::MonitorConfig config;
  if (options.config.empty() && options.plan.empty()) {
    output.fail(ExitCode::kCouldNotRun, "give --config monitor.yaml, --plan runbook.json, or both");
  }
  if (!options.config.empty()) {
    try {
      config = monitor::read_monitor_config(options.config, !options.plan.empty());
    } catch (const config::ConfigError& e) {
      output.fail(ExitCode::kCouldNotRun, e.what());
    }
  }
  if (!options.plan.empty()) {
    monitor::PlanFollower follower = prepare_plan(options, config);
    return follow_plan(options, std::move(config), std::move(follower));
  }
  if (!options.resolvers.empty() || !options.authoritatives.empty() || !options.interval.empty() ||
      !options.max_duration.empty()) {
    output.fail(ExitCode::kCouldNotRun, "--resolvers, --auth, --interval and --max-duration go with --plan");
  }
  base::RealClock clock;
  if (options.once) {
    monitor::Monitor watcher(config, clock);
    return run_once(watcher, config, output);
  }
  // Blocked before any thread starts, so only the wait below sees them.
  sigset_t signals = block_stop_signals();
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
  command->add_option("--config", options->config, "monitor.yaml (docs/operations.md, Monitor)");
  command->add_option("--plan", options->plan,
                      "Follow a runbook of `cutover plan --json` step by step until every step is done");
  command->add_option("--resolvers", options->resolvers, "With --plan: resolvers to watch, ADDR[:PORT],...");
  command->add_option("--auth", options->authoritatives,
                      "With --plan: authoritatives to ask, ADDR[:PORT],... (default: the zone's NS set)");
  command->add_option("--interval", options->interval, "With --plan: time between rounds (default: the config's, 10s)");
  command->add_option("--max-duration", options->max_duration, "With --plan: stop after this long (default: no limit)");
  command->add_flag("--once", options->once, "Run one round, print it and exit (0 agree, 1 mismatch or alert)");
  options->output.add_json_flag(*command, "Print the round (--once; at the stop otherwise) and the alert log lines as JSON");
  command->callback([options] { Output::finish(run_monitor(*options)); });
}

}  // namespace cutover::cmd
