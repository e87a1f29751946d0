// Following a runbook through the monitor's rounds (plan_follow.h).
#include "monitor/plan_follow.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "dns/types.h"
#include "tools/plan/plan_request.h"
#include "tools/plan/runbook_output.h"
#include "tools/report/text_table.h"

namespace cutover::monitor {
namespace {

using tools::StepCheck;

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

const WatchOutcome* outcome_for(const std::vector<WatchOutcome>& outcomes, const StepCheck& check) {
  const std::string name = check.name.lowercased().to_text();
  const std::string type = dns::type_to_text(check.type);
  for (const auto& outcome : outcomes) {
    if (lowercase(outcome.name) == name && outcome.type == type) return &outcome;
  }
  return nullptr;
}

// The rdata of the reply's records of `type` ("owner TYPE rdata" in ServerReply::answers).
std::vector<std::string> rdata_of(const tools::ServerReply& reply, dns::RRType type) {
  const std::string type_text = dns::type_to_text(type);
  std::vector<std::string> out;
  for (const auto& answer : reply.answers) {
    std::size_t first = answer.find(' ');
    if (first == std::string::npos) continue;
    std::size_t second = answer.find(' ', first + 1);
    if (second == std::string::npos || answer.compare(first + 1, second - first - 1, type_text) != 0) continue;
    std::string rdata = answer.substr(second + 1);
    // Names in rdata (NS, CNAME, MX targets) compare without case (RFC 4343).
    if (type == dns::RRType::NS || type == dns::RRType::CNAME) rdata = lowercase(rdata);
    out.push_back(std::move(rdata));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "nothing" : out;
}

// Does one reply satisfy `check`? `why` says what it shows instead, when not.
bool reply_holds(const StepCheck& check, const tools::ServerReply& reply, std::string& why) {
  if (!reply.answered) {
    why = "no reply";
    return false;
  }
  const bool nxdomain = reply.rcode == dns::Rcode::kNxDomain;
  if (reply.rcode != dns::Rcode::kNoError && !nxdomain) {
    why = dns::rcode_to_text(reply.rcode);
    return false;
  }
  std::vector<std::string> rdata = rdata_of(reply, check.type);
  switch (check.condition) {
    case StepCheck::Condition::kTtlAtMost:
      // No records of the type: no copy left to wait for.
      if (rdata.empty() || !reply.min_ttl || *reply.min_ttl <= check.ttl) return true;
      why = fmt::format("TTL {} (> {})", *reply.min_ttl, check.ttl);
      return false;
    case StepCheck::Condition::kTtlAtLeast:
      if (!rdata.empty() && reply.min_ttl && *reply.min_ttl >= check.ttl) return true;
      why = rdata.empty() ? "no records" : fmt::format("TTL {} (< {})", reply.min_ttl.value_or(0), check.ttl);
      return false;
    case StepCheck::Condition::kServes: {
      std::vector<std::string> expected = check.rdata;
      if (check.type == dns::RRType::NS || check.type == dns::RRType::CNAME) {
        for (auto& item : expected) item = lowercase(item);
        std::sort(expected.begin(), expected.end());
      }
      if (!nxdomain && rdata == expected) return true;
      why = nxdomain ? "NXDOMAIN" : "serves " + join(rdata);
      return false;
    }
    case StepCheck::Condition::kAbsent:
      if (nxdomain || rdata.empty()) return true;
      why = "still serves " + join(rdata);
      return false;
    case StepCheck::Condition::kExists:
      if (!nxdomain && !rdata.empty()) return true;
      why = nxdomain ? "NXDOMAIN" : "NODATA";
      return false;
    case StepCheck::Condition::kElapsed:
      break;
  }
  return false;
}

std::string check_text(const StepCheck& check) {
  std::string subject = fmt::format("{} {}", check.name.to_text(), dns::type_to_text(check.type));
  switch (check.condition) {
    case StepCheck::Condition::kTtlAtMost: return fmt::format("{} TTL <= {}", subject, check.ttl);
    case StepCheck::Condition::kTtlAtLeast: return fmt::format("{} TTL >= {}", subject, check.ttl);
    case StepCheck::Condition::kServes: return fmt::format("{} = {}", subject, join(check.rdata));
    case StepCheck::Condition::kAbsent: return subject + " gone";
    case StepCheck::Condition::kExists: return subject + " exists";
    case StepCheck::Condition::kElapsed: return fmt::format("{} s after step {}", check.seconds, check.since_step + 1);
  }
  return subject;
}

std::string seconds_text(double value) { return fmt::format("{:.1f} s", value); }

}  // namespace

PlanFollower::PlanFollower(tools::Runbook book, double slack_seconds) : book_(std::move(book)) {
  progress_.origin = book_.origin;
  progress_.start_unix = static_cast<double>(book_.start.time_since_epoch().count());
  progress_.slack_seconds = slack_seconds;
  std::map<std::string, std::size_t> last_of_phase;
  for (std::size_t i = 0; i < book_.steps.size(); ++i) {
    const auto& step = book_.steps[i];
    PlanStepProgress entry;
    entry.phase = step.phase;
    entry.title = step.title;
    entry.planned_offset = static_cast<double>(step.offset.count());
    if (auto before = last_of_phase.find(step.phase); before != last_of_phase.end()) {
      entry.after = before->second;
      entry.planned_wait = entry.planned_offset - progress_.steps[before->second].planned_offset;
    }
    last_of_phase[step.phase] = i;
    progress_.steps.push_back(std::move(entry));
  }
  hold_since_.resize(book_.steps.size());
}

std::vector<WatchSpec> PlanFollower::watches() const {
  std::vector<WatchSpec> out;
  std::set<std::pair<std::string, dns::RRType>> seen;
  for (const auto& step : book_.steps) {
    for (const auto* checks : {&step.ready, &step.done}) {
      for (const auto& check : *checks) {
        if (check.condition == StepCheck::Condition::kElapsed) continue;
        if (!seen.insert({check.name.lowercased().to_text(), check.type}).second) continue;
        WatchSpec watch;
        watch.name = check.name;
        watch.type = check.type;
        // A deleted or not yet created name is expected to be NXDOMAIN at some point.
        watch.exists = false;
        out.push_back(std::move(watch));
      }
    }
  }
  return out;
}

bool PlanFollower::check_holds(const StepCheck& check, const std::vector<WatchOutcome>& outcomes,
                               const std::string& resolver, double now, std::string& why) const {
  if (check.condition == StepCheck::Condition::kElapsed) {
    const auto& since = progress_.steps[check.since_step];
    if (since.done_at && now - *since.done_at >= check.seconds) return true;
    why = since.done_at ? fmt::format("{} s left of the time rule", std::ceil(check.seconds - (now - *since.done_at)))
                        : fmt::format("step {} not done", check.since_step + 1);
    return false;
  }
  const WatchOutcome* outcome = outcome_for(outcomes, check);
  if (!outcome) {
    why = "not asked this round";
    return false;
  }
  const bool on_resolvers = check.source == StepCheck::Source::kResolvers;
  bool answered = false;
  for (const auto& source : outcome->round.sources) {
    if (source.authoritative == on_resolvers) continue;
    if (on_resolvers && source.probe.server != resolver) continue;
    std::string detail;
    if (!source.probe.answered && !on_resolvers) continue;  // a silent authoritative has its own alert
    answered = true;
    if (!reply_holds(check, source.probe, detail)) {
      why = fmt::format("{}: {} ({})", source.probe.server, detail, check_text(check));
      return false;
    }
  }
  if (!answered) {
    why = on_resolvers ? resolver + ": not asked" : "no authoritative answered";
    return false;
  }
  return true;
}

bool PlanFollower::authoritatives_hold(const std::vector<StepCheck>& checks, const std::vector<WatchOutcome>& outcomes,
                                       double now, std::string& why) const {
  for (const auto& check : checks) {
    if (check.source == StepCheck::Source::kResolvers && check.condition != StepCheck::Condition::kElapsed) continue;
    if (!check_holds(check, outcomes, "", now, why)) return false;
  }
  return true;
}

std::vector<PlanEvent> PlanFollower::observe(const std::vector<WatchOutcome>& outcomes, double now) {
  for (const auto& outcome : outcomes) {
    for (const auto& source : outcome.round.sources) {
      if (!source.authoritative &&
          std::find(resolvers_seen_.begin(), resolvers_seen_.end(), source.probe.server) == resolvers_seen_.end()) {
        resolvers_seen_.push_back(source.probe.server);
      }
    }
  }
  std::vector<PlanEvent> events;
  auto emit = [&](std::size_t index, std::string kind, std::string text) {
    events.push_back(PlanEvent{index, std::move(kind), now, std::move(text)});
  };
  for (std::size_t i = 0; i < book_.steps.size(); ++i) {
    const auto& step = book_.steps[i];
    auto& state = progress_.steps[i];
    if (state.done_at) continue;
    if (state.after && !progress_.steps[*state.after].done_at) {
      state.waiting_for = fmt::format("step {} not done", *state.after + 1);
      continue;
    }
    std::string why;
    if (!state.ready_at) {
      // Time rules first, then every resolver separately.
      bool ready = authoritatives_hold(step.ready, outcomes, now, why);
      bool has_resolver_checks = false;
      std::string resolver_why;
      // A lowered TTL counts once it has held for longer than itself: the tail of an old copy
      // also shows a small TTL, but the copy fetched after it shows the lowered TTL only where
      // the resolver keeps it (a TTL floor shows its floor; see plan_follow.h).
      std::uint32_t settle = 0;
      for (const auto& check : step.ready) {
        if (check.source == StepCheck::Source::kResolvers && check.condition == StepCheck::Condition::kTtlAtMost) {
          settle = std::max(settle, check.ttl);
        }
      }
      for (const auto& resolver : resolvers_seen_) {
        bool holds = true;
        for (const auto& check : step.ready) {
          if (check.source != StepCheck::Source::kResolvers || check.condition == StepCheck::Condition::kElapsed) {
            continue;
          }
          has_resolver_checks = true;
          std::string one_why;
          if (!state.resolver_ready.contains(resolver) && !check_holds(check, outcomes, resolver, now, one_why)) {
            resolver_why += (resolver_why.empty() ? "" : "; ") + one_why;
            holds = false;
            break;
          }
        }
        if (!has_resolver_checks) break;
        auto& since = hold_since_[i];
        if (holds && !state.resolver_ready.contains(resolver)) {
          const double from = since.try_emplace(resolver, now).first->second;
          if (settle > 0 && now - from < settle + progress_.slack_seconds) {
            holds = false;
            resolver_why += fmt::format("{}{}: settling ({:.1f} s of {} s)", resolver_why.empty() ? "" : "; ",
                                        resolver, now - from, settle + progress_.slack_seconds);
          } else {
            state.resolver_ready[resolver] = from;
            emit(i, "resolver-ready",
                 fmt::format("{} holds the ready checks since T{:+.1f} s", resolver, from - progress_.start_unix));
          }
        } else if (!holds) {
          since.erase(resolver);
        }
        if (!holds) ready = false;
      }
      if (has_resolver_checks && resolvers_seen_.empty()) {
        ready = false;
        resolver_why = "no resolver answered yet";
      }
      if (ready) {
        // When the last resolver's run began; a time rule or an authoritative check holds from now.
        const bool only_resolvers = std::all_of(step.ready.begin(), step.ready.end(), [](const StepCheck& check) {
          return check.source == StepCheck::Source::kResolvers && check.condition != StepCheck::Condition::kElapsed;
        });
        state.ready_at = now;
        if (only_resolvers && !state.resolver_ready.empty()) {
          state.ready_at = state.resolver_ready.begin()->second;
          for (const auto& [resolver, at] : state.resolver_ready) state.ready_at = std::max(*state.ready_at, at);
        }
        if (state.after) state.measured_wait = *state.ready_at - *progress_.steps[*state.after].done_at;
        std::string text = fmt::format("ready at T{:+.1f} s (planned T+{:.0f} s)", *state.ready_at - progress_.start_unix,
                                       state.planned_offset);
        if (state.measured_wait && state.planned_wait) {
          text += fmt::format("; waited {} after step {} was done, planned {}", seconds_text(*state.measured_wait),
                              *state.after + 1, seconds_text(*state.planned_wait));
          if (*state.measured_wait > *state.planned_wait + progress_.slack_seconds) {
            state.late = true;
            emit(i, "late", fmt::format("the wait took {} longer than planned",
                                        seconds_text(*state.measured_wait - *state.planned_wait)));
          }
        }
        if (state.done_at) state.early = true;
        emit(i, "ready", std::move(text));
      } else {
        state.waiting_for = !why.empty() ? why : resolver_why;
      }
    }
    if (!state.done_at) {
      std::string done_why;
      const bool has_done_checks = !step.done.empty();
      if (has_done_checks ? authoritatives_hold(step.done, outcomes, now, done_why) : state.ready_at.has_value()) {
        state.done_at = now;
        if (!state.ready_at) {
          state.early = true;
          emit(i, "early", fmt::format("done before its wait passed ({})", state.waiting_for));
        }
        emit(i, "done", fmt::format("done at T{:+.1f} s", now - progress_.start_unix));
        if (state.ready_at) state.waiting_for.clear();
      } else if (state.ready_at) {
        state.waiting_for = "action not seen: " + done_why;
      }
    }
  }
  // A step done early is finished too: its wait no longer matters once the action is out.
  progress_.finished = std::all_of(progress_.steps.begin(), progress_.steps.end(),
                                   [](const PlanStepProgress& step) { return step.done_at.has_value(); });
  return events;
}

std::vector<Condition> PlanFollower::conditions(double now) const {
  std::vector<Condition> out;
  for (std::size_t i = 0; i < progress_.steps.size(); ++i) {
    const auto& state = progress_.steps[i];
    // A step done (early) no longer waits: its late wait is a finding of the step, not an alert.
    if (state.ready_at || state.done_at || !state.after || !state.planned_wait) continue;
    const auto& before = progress_.steps[*state.after];
    if (!before.done_at) continue;
    const double waited = now - *before.done_at;
    if (waited <= *state.planned_wait + progress_.slack_seconds) continue;
    out.push_back(Condition{kRulePlanWindow, fmt::format("step {}: {}", i + 1, state.title),
                            fmt::format("{} after step {} was done (planned wait {}): {}", seconds_text(waited),
                                        *state.after + 1, seconds_text(*state.planned_wait), state.waiting_for)});
  }
  return out;
}

nlohmann::json plan_progress_to_json(const PlanProgress& progress) {
  auto optional = [](const std::optional<double>& value) { return value ? nlohmann::json(*value) : nlohmann::json(); };
  nlohmann::json steps = nlohmann::json::array();
  for (std::size_t i = 0; i < progress.steps.size(); ++i) {
    const auto& step = progress.steps[i];
    nlohmann::json resolvers = nlohmann::json::object();
    for (const auto& [resolver, at] : step.resolver_ready) resolvers[resolver] = at - progress.start_unix;
    steps.push_back({{"step", i + 1},
                     {"phase", step.phase},
                     {"title", step.title},
                     {"planned_offset_seconds", step.planned_offset},
                     {"after_step", step.after ? nlohmann::json(*step.after + 1) : nlohmann::json()},
                     {"planned_wait_seconds", optional(step.planned_wait)},
                     {"measured_wait_seconds", optional(step.measured_wait)},
                     {"ready_offset_seconds",
                      step.ready_at ? nlohmann::json(*step.ready_at - progress.start_unix) : nlohmann::json()},
                     {"done_offset_seconds",
                      step.done_at ? nlohmann::json(*step.done_at - progress.start_unix) : nlohmann::json()},
                     {"resolvers_ready_offset_seconds", resolvers},
                     {"late", step.late},
                     {"early", step.early},
                     {"waiting_for", step.waiting_for}});
  }
  return {{"origin", progress.origin},
          {"start_unix", progress.start_unix},
          {"slack_seconds", progress.slack_seconds},
          {"finished", progress.finished},
          {"steps", steps}};
}

std::string plan_progress_to_text(const PlanProgress& progress) {
  auto offset = [&](const std::optional<double>& at) {
    return at ? fmt::format("T{:+.1f} s", *at - progress.start_unix) : std::string("-");
  };
  tools::TextTable table({"step", "title", "planned", "ready", "done", "wait (planned)", "note"});
  for (std::size_t i = 0; i < progress.steps.size(); ++i) {
    const auto& step = progress.steps[i];
    std::string wait = step.measured_wait ? seconds_text(*step.measured_wait) : "-";
    if (step.planned_wait) wait += " (" + seconds_text(*step.planned_wait) + ")";
    std::string note = step.late ? "LATE" : step.early ? "EARLY: done before its wait passed" : "";
    if (!step.done_at && !step.waiting_for.empty()) note = "waiting: " + step.waiting_for;
    table.add_row({std::to_string(i + 1), step.title, fmt::format("T+{:.0f} s", step.planned_offset),
                   offset(step.ready_at), offset(step.done_at), wait, note});
  }
  return fmt::format("plan for {}: {}\n{}", progress.origin, progress.finished ? "every step done" : "not finished",
                     table.render());
}

}  // namespace cutover::monitor
