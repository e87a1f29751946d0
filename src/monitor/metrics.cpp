// Prometheus text exposition (format 0.0.4: # HELP, # TYPE, name{labels} value) and JSON
// of a MonitorSnapshot.
#include "monitor/metrics.h"

#include <fmt/format.h>

namespace cutover::monitor {
namespace {

// Label values escape backslash, double quote and newline (exposition format, "Text format
// details").
std::string escape(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

// Samples are kept per family and written family by family: the format wants every line of
// one metric in one group, while the renderer below walks sources, not families.
class Exposition {
 public:
  void family(const std::string& name, const std::string& type, const std::string& help) {
    order_.push_back(name);
    families_[name] = fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  }
  void sample(const std::string& name, const std::vector<std::pair<std::string, std::string>>& labels, double value) {
    std::string& text = families_[name];
    text += name;
    if (!labels.empty()) {
      text += '{';
      for (std::size_t i = 0; i < labels.size(); ++i) {
        text += fmt::format("{}{}=\"{}\"", i == 0 ? "" : ",", labels[i].first, escape(labels[i].second));
      }
      text += '}';
    }
    text += fmt::format(" {}\n", value);
  }
  std::string text() const {
    std::string out;
    for (const auto& name : order_) out += families_.at(name);
    return out;
  }

 private:
  std::vector<std::string> order_;  // every family is declared before its samples
  std::map<std::string, std::string> families_;
};

using Labels = std::vector<std::pair<std::string, std::string>>;

Labels watch_labels(const WatchOutcome& outcome) { return {{"name", outcome.name}, {"type", outcome.type}}; }

Labels with(Labels labels, const std::string& key, const std::string& value) {
  labels.emplace_back(key, value);
  return labels;
}

}  // namespace

void count_round(const std::vector<WatchOutcome>& outcomes, std::map<std::string, ServerCounters>& servers) {
  for (const auto& outcome : outcomes) {
    for (const auto& source : outcome.round.sources) {
      ServerCounters& counters = servers[source.probe.server];
      counters.role = source.authoritative ? "authoritative" : "resolver";
      ++counters.queries;
      if (!source.probe.answered) {
        ++counters.timeouts;
        continue;
      }
      ++counters.rcodes[dns::rcode_to_text(source.probe.rcode)];
    }
  }
}

namespace {

// `--plan`: one series per step (docs/operations.md, "Following a runbook").
void plan_metrics(const PlanProgress& plan, Exposition& out) {
  auto labels = [](std::size_t index, const PlanStepProgress& step) {
    return Labels{{"step", std::to_string(index + 1)}, {"title", step.title}};
  };
  out.family("cutover_monitor_plan_step_ready", "gauge", "1 once the step's wait has passed on every watched resolver.");
  out.family("cutover_monitor_plan_step_done", "gauge", "1 once the step's action is seen on the authoritatives.");
  out.family("cutover_monitor_plan_step_late", "gauge", "1 when the step's wait took longer than planned (plus slack).");
  out.family("cutover_monitor_plan_step_planned_wait_seconds", "gauge", "The runbook's wait before the step.");
  out.family("cutover_monitor_plan_step_measured_wait_seconds", "gauge", "The wait measured, from the step before done to ready.");
  out.family("cutover_monitor_plan_resolver_ready_offset_seconds", "gauge",
             "Seconds after T+0 when the resolver first held the step's ready checks.");
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const auto& step = plan.steps[i];
    out.sample("cutover_monitor_plan_step_ready", labels(i, step), step.ready_at ? 1 : 0);
    out.sample("cutover_monitor_plan_step_done", labels(i, step), step.done_at ? 1 : 0);
    out.sample("cutover_monitor_plan_step_late", labels(i, step), step.late ? 1 : 0);
    if (step.planned_wait) out.sample("cutover_monitor_plan_step_planned_wait_seconds", labels(i, step), *step.planned_wait);
    if (step.measured_wait) {
      out.sample("cutover_monitor_plan_step_measured_wait_seconds", labels(i, step), *step.measured_wait);
    }
    for (const auto& [resolver, at] : step.resolver_ready) {
      out.sample("cutover_monitor_plan_resolver_ready_offset_seconds", with(labels(i, step), "resolver", resolver),
                 at - plan.start_unix);
    }
  }
}

}  // namespace

std::string render_metrics(const MonitorSnapshot& snapshot) {
  Exposition out;
  out.family("cutover_monitor_rounds_total", "counter", "Rounds run since start.");
  out.sample("cutover_monitor_rounds_total", {}, static_cast<double>(snapshot.rounds));
  out.family("cutover_monitor_last_round_timestamp_seconds", "gauge", "Unix time the last round finished.");
  out.sample("cutover_monitor_last_round_timestamp_seconds", {}, snapshot.last_round_unix);
  out.family("cutover_monitor_last_round_duration_seconds", "gauge", "How long the last round took.");
  out.sample("cutover_monitor_last_round_duration_seconds", {}, snapshot.last_round_seconds);

  out.family("cutover_monitor_agree", "gauge", "1 when every source serves the reference answer (and the expected one).");
  for (const auto& o : snapshot.outcomes) out.sample("cutover_monitor_agree", watch_labels(o), o.mismatch ? 0 : 1);
  out.family("cutover_monitor_authoritatives_agree", "gauge", "1 when every answering authoritative serves the reference answer.");
  for (const auto& o : snapshot.outcomes) {
    out.sample("cutover_monitor_authoritatives_agree", watch_labels(o), o.authoritatives_agree ? 1 : 0);
  }
  out.family("cutover_monitor_expected_match", "gauge", "1 when the authoritative answer is the configured expect list.");
  for (const auto& o : snapshot.outcomes) {
    if (o.expected_matches) out.sample("cutover_monitor_expected_match", watch_labels(o), *o.expected_matches ? 1 : 0);
  }
  out.family("cutover_monitor_resolver_match", "gauge", "1 when the resolver's answer matches the authoritative reference.");
  for (const auto& o : snapshot.outcomes) {
    for (const auto& s : o.round.sources) {
      if (s.authoritative || !s.probe.answered) continue;
      out.sample("cutover_monitor_resolver_match", with(watch_labels(o), "resolver", s.probe.server),
                 s.status == "ok" ? 1 : 0);
    }
  }
  out.family("cutover_monitor_resolver_ttl_seconds", "gauge", "Lowest remaining TTL in the resolver's answer.");
  for (const auto& o : snapshot.outcomes) {
    for (const auto& s : o.round.sources) {
      if (s.authoritative || !s.probe.min_ttl) continue;
      out.sample("cutover_monitor_resolver_ttl_seconds", with(watch_labels(o), "resolver", s.probe.server),
                 *s.probe.min_ttl);
    }
  }
  out.family("cutover_monitor_authoritative_up", "gauge", "1 when the authoritative answered the direct probe.");
  out.family("cutover_monitor_authoritative_latency_seconds", "gauge", "Round trip of the direct probe.");
  out.family("cutover_monitor_authoritative_serial", "gauge", "SOA serial the authoritative serves for the name's zone.");
  for (const auto& o : snapshot.outcomes) {
    for (const auto& s : o.round.sources) {
      if (!s.authoritative) continue;
      Labels labels = with(watch_labels(o), "server", s.probe.server);
      out.sample("cutover_monitor_authoritative_up", labels, s.probe.answered ? 1 : 0);
      if (s.probe.answered) {
        out.sample("cutover_monitor_authoritative_latency_seconds", labels,
                   std::chrono::duration<double>(s.probe.round_trip).count());
      }
      if (s.serial) out.sample("cutover_monitor_authoritative_serial", labels, *s.serial);
    }
  }

  out.family("cutover_monitor_queries_total", "counter", "Watched questions sent, per server.");
  out.family("cutover_monitor_timeouts_total", "counter", "Watched questions without a reply, per server.");
  out.family("cutover_monitor_responses_total", "counter", "Replies per server and rcode (NXDOMAIN and SERVFAIL always present).");
  for (const auto& [server, c] : snapshot.servers) {
    Labels labels{{"server", server}, {"role", c.role}};
    out.sample("cutover_monitor_queries_total", labels, static_cast<double>(c.queries));
    out.sample("cutover_monitor_timeouts_total", labels, static_cast<double>(c.timeouts));
    auto rcodes = c.rcodes;
    rcodes.try_emplace("NXDOMAIN", 0);
    rcodes.try_emplace("SERVFAIL", 0);
    for (const auto& [rcode, count] : rcodes) {
      out.sample("cutover_monitor_responses_total", with(labels, "rcode", rcode), static_cast<double>(count));
    }
  }

  out.family("cutover_monitor_alert_firing", "gauge", "1 firing, 0 pending (condition holds, not yet for long enough).");
  for (const auto& alert : snapshot.alerts) {
    out.sample("cutover_monitor_alert_firing", {{"rule", alert.rule}, {"subject", alert.subject}}, alert.firing ? 1 : 0);
  }
  out.family("cutover_monitor_alert_transitions_total", "counter", "Alerts that started firing or resolved.");
  out.sample("cutover_monitor_alert_transitions_total", {}, static_cast<double>(snapshot.alert_transitions));
  if (snapshot.webhook_configured) {
    const WebhookStats& w = snapshot.webhook;
    out.family("cutover_monitor_webhook_delivered_total", "counter", "Alert payloads the webhook accepted.");
    out.sample("cutover_monitor_webhook_delivered_total", {}, static_cast<double>(w.delivered));
    out.family("cutover_monitor_webhook_failed_attempts_total", "counter", "Webhook attempts without a 2xx reply, retries included.");
    out.sample("cutover_monitor_webhook_failed_attempts_total", {}, static_cast<double>(w.failed_attempts));
    out.family("cutover_monitor_webhook_given_up_total", "counter", "Payloads dropped after the last retry or because the queue was full.");
    out.sample("cutover_monitor_webhook_given_up_total", {}, static_cast<double>(w.given_up + w.dropped_queue_full));
    out.family("cutover_monitor_webhook_queued", "gauge", "Payloads waiting to be sent.");
    out.sample("cutover_monitor_webhook_queued", {}, static_cast<double>(w.queued));
  }
  if (snapshot.plan) plan_metrics(*snapshot.plan, out);
  return out.text();
}

nlohmann::json outcome_to_json(const WatchOutcome& outcome) {
  nlohmann::json out = tools::sweep_round_to_json(outcome.round);
  out["name"] = outcome.name;
  out["type"] = outcome.type;
  out["agree"] = !outcome.mismatch;
  out["authoritatives_agree"] = outcome.authoritatives_agree;
  out["expected_matches"] = outcome.expected_matches ? nlohmann::json(*outcome.expected_matches) : nlohmann::json();
  out["nxdomain"] = outcome.nxdomain;
  out["silent_authoritatives"] = outcome.silent_authoritatives;
  return out;
}

nlohmann::json alert_event_to_json(const AlertEvent& event) {
  return {{"rule", event.rule}, {"subject", event.subject}, {"state", event.state},
          {"message", event.message}, {"held_seconds", event.held_seconds}};
}

nlohmann::json status_json(const MonitorSnapshot& snapshot) {
  nlohmann::json out;
  out["rounds"] = snapshot.rounds;
  out["last_round_unix"] = snapshot.last_round_unix;
  out["last_round_seconds"] = snapshot.last_round_seconds;
  bool agree = true;
  out["watches"] = nlohmann::json::array();
  for (const auto& outcome : snapshot.outcomes) {
    nlohmann::json watch = outcome_to_json(outcome);
    watch["history"] = nlohmann::json::array();
    for (const auto& point : snapshot.agreement.of(watch_subject(outcome))) {
      watch["history"].push_back({{"round", point.round}, {"at_unix", point.at_unix}, {"agree", point.agree}});
    }
    out["watches"].push_back(std::move(watch));
    agree = agree && !outcome.mismatch;
  }
  out["all_agree"] = agree;
  out["alerts"] = nlohmann::json::array();
  for (const auto& alert : snapshot.alerts) {
    out["alerts"].push_back({{"rule", alert.rule}, {"subject", alert.subject},
                             {"state", alert.firing ? "firing" : "pending"}, {"held_seconds", alert.held_seconds},
                             {"message", alert.message}});
  }
  nlohmann::json servers = nlohmann::json::object();
  for (const auto& [server, c] : snapshot.servers) {
    servers[server] = {{"role", c.role}, {"queries", c.queries}, {"timeouts", c.timeouts}, {"rcodes", c.rcodes}};
  }
  out["servers"] = servers;
  if (snapshot.plan) out["plan"] = plan_progress_to_json(*snapshot.plan);
  if (snapshot.webhook_configured) {
    const WebhookStats& w = snapshot.webhook;
    out["webhook"] = {{"delivered", w.delivered}, {"failed_attempts", w.failed_attempts},
                      {"given_up", w.given_up}, {"dropped_queue_full", w.dropped_queue_full}, {"queued", w.queued}};
  }
  return out;
}

}  // namespace cutover::monitor
