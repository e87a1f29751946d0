// The monitor's rounds, loop and HTTP routes (monitor.h).
#include "monitor/monitor.h"

#include <algorithm>

#include <fmt/format.h>

#include "control/console/console.h"
#include "tools/sweep/sweep.h"

namespace cutover::monitor {
namespace {

double unix_seconds(std::chrono::system_clock::time_point when) {
  return std::chrono::duration<double>(when.time_since_epoch()).count();
}

tools::SweepSpec sweep_spec(const MonitorConfig& config, const WatchSpec& watch) {
  tools::SweepSpec spec;
  spec.name = watch.name;
  spec.type = watch.type;
  spec.authoritative = watch.authoritatives.empty() ? config.authoritatives : watch.authoritatives;
  spec.resolvers = config.resolvers;
  spec.auth_port = config.auth_port;
  spec.query.timeout = config.timeout;
  spec.query.tries = config.tries;
  return spec;
}

}  // namespace

Monitor::Monitor(MonitorConfig config, const base::Clock& clock)
    : config_(std::move(config)), clock_(clock), alerts_(config_.alerts) {
  if (config_.webhook) {
    webhook_ = std::make_unique<WebhookSender>(*config_.webhook);
    state_.webhook_configured = true;
  }
}

Monitor::~Monitor() {
  stop();
  if (http_) http_->stop();
}

RoundReport Monitor::run_round() {
  RoundReport report;
  const auto started = clock_.now();
  for (const auto& watch : config_.watches) {
    report.outcomes.push_back(evaluate_watch(watch, tools::sweep_once(sweep_spec(config_, watch))));
    report.all_agree = report.all_agree && !report.outcomes.back().mismatch;
  }
  const auto finished = clock_.now();
  const double now_unix = unix_seconds(clock_.wall_now());
  std::vector<Condition> holding = conditions_of(report.outcomes);
  {
    std::lock_guard lock(mutex_);
    if (plan_) {
      report.plan_events = plan_->observe(report.outcomes, now_unix);
      for (auto& condition : plan_->conditions(now_unix)) holding.push_back(std::move(condition));
      state_.plan = plan_->progress();
      report.plan = state_.plan;
    }
    report.events = alerts_.update(holding, finished);
    report.alerts = alerts_.active(finished);
    count_round(report.outcomes, state_.servers);
    ++state_.rounds;
    state_.last_round_unix = now_unix;
    state_.last_round_seconds = std::chrono::duration<double>(finished - started).count();
    state_.outcomes = report.outcomes;
    state_.agreement.record(report.outcomes, state_.rounds, now_unix);
    state_.alerts = report.alerts;
    state_.alert_transitions = alerts_.transitions();
  }
  for (const auto& alert : report.alerts) report.any_firing = report.any_firing || alert.firing;
  if (webhook_) {
    for (const auto& event : report.events) webhook_->post(payload(event, now_unix).dump());
  }
  return report;
}

nlohmann::json Monitor::payload(const AlertEvent& event, double unix_time) {
  nlohmann::json out = alert_event_to_json(event);
  out["source"] = "cutover monitor";
  out["time"] = unix_time;
  out["text"] = fmt::format("[{}] {} {}: {}", event.state, event.rule, event.subject, event.message);
  return out;
}

void Monitor::follow(PlanFollower follower) {
  for (auto& watch : follower.watches()) {
    bool watched = std::any_of(config_.watches.begin(), config_.watches.end(), [&](const WatchSpec& existing) {
      return existing.name == watch.name && existing.type == watch.type;
    });
    if (!watched) config_.watches.push_back(std::move(watch));
  }
  std::lock_guard lock(mutex_);
  state_.plan = follower.progress();
  plan_ = std::move(follower);
}

bool Monitor::flush_webhook(std::chrono::milliseconds limit) { return !webhook_ || webhook_->flush(limit); }

MonitorSnapshot Monitor::snapshot() const {
  MonitorSnapshot out;
  {
    std::lock_guard lock(mutex_);
    out = state_;
  }
  if (webhook_) out.webhook = webhook_->stats();
  return out;
}

base::Status Monitor::start_http() {
  control::ControlOptions options;
  options.address = config_.metrics_host;
  options.port = config_.metrics_port;
  options.bearer_token = config_.metrics_token;
  http_ = std::make_unique<control::ControlServer>(options);
  http_->get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    response.set_content(render_metrics(snapshot()), "text/plain; version=0.0.4; charset=utf-8");
  });
  http_->get("/status", [this](const httplib::Request&, httplib::Response& response) {
    control::reply_json(response, 200, status_json(snapshot()).dump(2));
  });
  // The web console at / (docs/console.md): one panel, the last round, aged from when it ended.
  control::ConsoleOptions console_options;
  console_options.title = "cutover monitor";
  control::Console console(std::move(console_options));
  console.add_panel("monitor", [this] {
    MonitorSnapshot current = snapshot();
    nlohmann::json document = status_json(current);
    document["interval_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(config_.interval).count();
    control::PanelReading reading{document.dump(), std::nullopt};
    if (current.rounds > 0) {
      reading.measured_at = std::chrono::system_clock::time_point(
          std::chrono::duration_cast<std::chrono::system_clock::duration>(
              std::chrono::duration<double>(current.last_round_unix)));
    }
    return reading;
  });
  console.mount(*http_);
  return http_->start();
}

std::uint16_t Monitor::metrics_port() const { return http_ ? http_->port() : 0; }

void Monitor::run(const std::function<void(const RoundReport&)>& after_round) {
  auto next = std::chrono::steady_clock::now();
  while (true) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
    }
    RoundReport report = run_round();
    if (after_round) after_round(report);
    next += config_.interval;
    auto now = std::chrono::steady_clock::now();
    if (next < now) next = now;
    std::unique_lock lock(mutex_);
    if (wake_.wait_until(lock, next, [this] { return stopping_; })) return;
  }
}

void Monitor::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
}

}  // namespace cutover::monitor
