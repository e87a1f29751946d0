// Monitor: `cutover monitor`'s runtime. Each round asks, for every watched name, every
// authoritative and every resolver through tools::sweep_once (the sweep's own code), reads
// the round (watch_outcome.h), counts replies and timeouts, runs the alert rules and queues
// webhook payloads; the metrics listener serves /metrics, /status and the web console
// (control/console/console.h) from the last round.
// run_round() and run() are called from one thread; snapshot() and the HTTP routes from any.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "control/control_server.h"
#include "monitor/alerts.h"
#include "monitor/metrics.h"
#include "monitor/plan_follow.h"
#include "monitor/monitor_config.h"
#include "monitor/webhook.h"

namespace cutover::monitor {

struct RoundReport {
  std::vector<WatchOutcome> outcomes;
  std::vector<AlertEvent> events;  // transitions of this round
  std::vector<AlertStatus> alerts;  // firing and pending after it
  bool all_agree = true;
  bool any_firing = false;
  std::vector<PlanEvent> plan_events;  // with follow()
  std::optional<PlanProgress> plan;    // with follow(): the progress after this round
};

class Monitor {
 public:
  // `clock` must outlive the monitor.
  Monitor(MonitorConfig config, const base::Clock& clock);
  ~Monitor();

  // One round now: blocks for the questions (each bounded by timeout x tries).
  RoundReport run_round();

  // Follows a runbook from now on (`--plan`): its names join the watches, each round goes
  // through the follower, and its late windows become "plan-window" alerts. Call before run().
  void follow(PlanFollower follower);

  // Starts the metrics listener (GET /metrics, GET /status, the console at / and /events).
  base::Status start_http();
  std::uint16_t metrics_port() const;

  // Rounds every interval until stop(); a round that overruns the interval is followed by
  // the next at once. `after_round` (optional) sees each round's report on this thread.
  void run(const std::function<void(const RoundReport&)>& after_round = {});
  void stop();

  MonitorSnapshot snapshot() const;
  // The webhook payload of one transition.
  static nlohmann::json payload(const AlertEvent& event, double unix_time);
  // Waits for queued webhook posts (for --once); true when none is left.
  bool flush_webhook(std::chrono::milliseconds limit);

 private:
  MonitorConfig config_;
  const base::Clock& clock_;
  std::unique_ptr<WebhookSender> webhook_;
  std::unique_ptr<control::ControlServer> http_;

  mutable std::mutex mutex_;  // guards everything below
  std::condition_variable wake_;
  bool stopping_ = false;
  AlertEngine alerts_;
  MonitorSnapshot state_;
  std::optional<PlanFollower> plan_;
};

}  // namespace cutover::monitor
