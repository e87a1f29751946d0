// HealthMonitor: checkers in, snapshots out. The lock guards the entries; checkers run
// their probes without it and take it only to hand in a result.
#include "health/health_monitor.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "health/resolving_probe.h"

namespace cutover::health {

struct HealthMonitor::Entry {
  MonitoredEndpoint spec;
  std::vector<Target> targets;  // one per check
  EndpointStateMachine machine;
  HealthState last_effective = HealthState::kUnknown;
  bool last_quorum_lost = false;
  std::vector<std::optional<ProbeResult>> last_results;  // per check
  std::vector<std::optional<std::chrono::system_clock::time_point>> last_probes_at;
  std::optional<ProbeResult> last_result;  // of any check
  std::optional<std::chrono::system_clock::time_point> last_probe_at;
  std::optional<int> cert_days_left;
  std::deque<TransitionRecord> transitions;
  ProbeStats stats;
  EndpointCounters counters;
  std::vector<std::unique_ptr<Probe>> next_probes;  // handed to the checkers when they start
  ProbeHistory probes;  // the last hour, for the console
  VantageSuspicion suspicion;  // used only once set_suspect_after was called
};

namespace {

const std::vector<CheckSettings>& checks_of(const MonitoredEndpoint& endpoint, std::vector<CheckSettings>& single) {
  if (!endpoint.checks.empty()) return endpoint.checks;
  single = {endpoint.check};
  return single;
}

Thresholds thresholds_of(const MonitoredEndpoint& endpoint) {
  Thresholds thresholds;
  thresholds.fall = endpoint.check.fall;
  thresholds.rise = endpoint.check.rise;
  thresholds.interval = endpoint.check.interval;
  thresholds.timeout = endpoint.check.timeout;
  thresholds.wait_for_first_check = endpoint.wait_for_first_check;
  thresholds.combine = endpoint.combine;
  thresholds.quorum_rule = endpoint.quorum;
  std::vector<CheckSettings> single;
  for (const auto& check : checks_of(endpoint, single)) {
    thresholds.checks.push_back(CheckRule{check.fall, check.rise, check.interval, check.timeout, check.invert});
  }
  return thresholds;
}

// The probe target of one check: check-address when set (the answer still hands out the
// endpoint's address), and the check's port, else the endpoint's, else the type's default.
base::Result<Target> make_target(const MonitoredEndpoint& endpoint, const CheckSettings& check,
                                 std::uint16_t default_port) {
  Target target;
  target.pool = endpoint.pool;
  target.pool_name = endpoint.pool_name;
  target.address = check.address.empty() ? endpoint.address : check.address;
  target.endpoint = endpoint.address;
  target.port = check.port.value_or(endpoint.port != 0 ? endpoint.port : default_port);
  if (endpoint.hostname && check.address.empty()) {
    target.host = endpoint.address;  // resolved before each probe that connects (ResolvingProbe)
    return target;
  }
  bool v6 = target.address.find(':') != std::string::npos;
  std::string text = v6 ? fmt::format("[{}]:{}", target.address, target.port)
                        : fmt::format("{}:{}", target.address, target.port);
  auto socket = net::parse_socket_address(text);
  if (!socket) return socket.error();
  target.socket = *socket;
  return target;
}

std::size_t history_capacity(const MonitoredEndpoint& endpoint) {
  std::vector<CheckSettings> single;
  std::vector<std::chrono::milliseconds> intervals;
  for (const auto& check : checks_of(endpoint, single)) intervals.push_back(check.interval);
  return probe_history_capacity(intervals);
}

bool before(const MonitoredEndpoint& a, const MonitoredEndpoint& b) {
  return std::tie(a.pool, a.address) < std::tie(b.pool, b.address);
}

}  // namespace

HealthMonitor::HealthMonitor(const ProbeRegistry& registry, const base::Clock& clock, base::Logger& logger,
                             Listener listener)
    : registry_(registry), clock_(clock), logger_(logger), listener_(std::move(listener)) {
  snapshot_ = std::make_shared<const HealthSnapshot>();
}

HealthMonitor::~HealthMonitor() { stop(); }

base::Status HealthMonitor::configure(const std::vector<MonitoredEndpoint>& endpoints) {
  std::vector<std::unique_ptr<Entry>> fresh;
  for (const auto& endpoint : endpoints) {
    auto entry = std::make_unique<Entry>(Entry{endpoint, {}, EndpointStateMachine(thresholds_of(endpoint)), {}, false, {},
                                               {}, {}, {}, {}, {}, {}, {}, {}, {}, VantageSuspicion{}});
    std::vector<CheckSettings> single;
    for (const auto& check : checks_of(endpoint, single)) {
      auto probe = registry_.create(check);
      if (!probe) return base::make_error(probe.error().code, endpoint.pool + "/" + endpoint.address + ": " + probe.error().message);
      auto target = make_target(endpoint, check, registry_.default_port(check.type));
      if (!target) return base::make_error(target.error().code, endpoint.pool + "/" + endpoint.address + ": " + target.error().message);
      std::unique_ptr<Probe> runs = std::move(*probe);
      // A type that connects to the endpoint (it needs a port) is run at the addresses its
      // name resolves to; exec, file and signal checks read nothing of the address.
      const ProbeType* type = registry_.find(check.type);
      if (!target->host.empty() && type != nullptr && type->needs_port) {
        auto resolver = target_resolver(check.resolvers, check.timeout);
        if (!resolver) return base::make_error(resolver.error().code, endpoint.pool + "/" + endpoint.address + ": " + resolver.error().message);
        runs = std::make_unique<ResolvingProbe>(std::move(runs), std::move(*resolver), clock_, check.timeout);
      }
      entry->targets.push_back(*target);
      entry->next_probes.push_back(std::move(runs));
    }
    entry->last_results.resize(entry->targets.size());
    entry->last_probes_at.resize(entry->targets.size());
    entry->probes.set_capacity(history_capacity(endpoint));
    fresh.push_back(std::move(entry));
  }
  std::sort(fresh.begin(), fresh.end(), [](const auto& a, const auto& b) { return before(a->spec, b->spec); });

  stop_checkers(checkers_);
  auto start = std::chrono::steady_clock::now();
  std::uint64_t first_publish = 0;
  if (!publisher_.joinable()) publisher_ = std::thread([this] { publish_loop(); });
  {
    std::lock_guard lock(mutex_);
    for (auto& entry : fresh) {
      auto kept = std::find_if(entries_.begin(), entries_.end(), [&](const auto& old) {
        return old && old->spec.pool == entry->spec.pool && old->spec.address == entry->spec.address;
      });
      if (kept == entries_.end()) continue;
      // Same endpoint: keep what it has lived through, take the new settings.
      std::vector<std::unique_ptr<Probe>> probes = std::move(entry->next_probes);
      std::vector<Target> targets = entry->targets;
      MonitoredEndpoint spec = entry->spec;
      entry = std::move(*kept);
      entry->spec = spec;
      entry->targets = targets;
      entry->next_probes = std::move(probes);
      entry->last_results.resize(targets.size());
      entry->last_probes_at.resize(targets.size());
      entry->machine.reconfigure(thresholds_of(spec));
      entry->probes.set_capacity(history_capacity(spec));
    }
    entries_ = std::move(fresh);
    auto shortest = std::chrono::milliseconds(1000);
    for (const auto& entry : entries_) {
      std::vector<CheckSettings> single;
      for (const auto& check : checks_of(entry->spec, single)) shortest = std::min(shortest, check.interval);
    }
    tick_period_ = std::clamp(shortest / 4, std::chrono::milliseconds(50), std::chrono::milliseconds(1000));
    first_publish = request_publish();
    for (auto& entry : entries_) {
      Entry* raw = entry.get();
      std::vector<CheckSettings> single;
      const auto& checks = checks_of(entry->spec, single);
      for (std::size_t i = 0; local_probes_ && i < entry->next_probes.size(); ++i) {
        checkers_.push_back(std::make_unique<Checker>(
            std::move(entry->next_probes[i]), entry->targets[i], checks[i].interval, start + entry->spec.start_offset,
            [this, raw, i](const ProbeResult& result) { on_result(*raw, i, result); }));
      }
      entry->next_probes.clear();
    }
  }
  wait_published(first_publish);  // the new pools answer before any probe has run
  for (auto& checker : checkers_) checker->start();
  if (!ticker_.joinable()) ticker_ = std::thread([this] { tick_loop(); });
  logger_.info("health.configured", {{"endpoints", std::to_string(endpoints.size())}});
  return {};
}

void HealthMonitor::stop_checkers(std::vector<std::unique_ptr<Checker>>& checkers) {
  // All are asked first, so stopping takes one probe timeout, not one per endpoint.
  for (auto& checker : checkers) checker->request_stop();
  for (auto& checker : checkers) checker->join();
  checkers.clear();
}

void HealthMonitor::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    tick_wake_.notify_all();
    publish_wake_.notify_all();
    published_cv_.notify_all();
  }
  if (ticker_.joinable()) ticker_.join();
  if (publisher_.joinable()) publisher_.join();
  stop_checkers(checkers_);
}

void HealthMonitor::on_result(Entry& entry, std::size_t check, const ProbeResult& result) {
  std::lock_guard lock(mutex_);
  entry.stats.record(result);
  entry.last_result = result;
  entry.last_probe_at = clock_.wall_now();
  if (check < entry.last_results.size()) {
    entry.last_results[check] = result;
    entry.last_probes_at[check] = entry.last_probe_at;
  }
  entry.probes.record(ProbeTick{++probe_sequence_, clock_.now(), *entry.last_probe_at, result.outcome, result.latency, check});
  if (result.cert_days_left) entry.cert_days_left = result.cert_days_left;
  if (entry.machine.report(kLocalChecker, check, result.outcome, clock_.now())) {
    std::string which = entry.targets.size() > 1 ? fmt::format("checks[{}] ", check) : "";
    changed(entry, fmt::format("{}{}: {}", which, outcome_to_text(result.outcome), result.detail));
    request_publish();
  }
  track_suspicion(entry);
  if (verdict_observer_) {
    VantageVerdict verdict;
    verdict.pool = entry.spec.pool;
    verdict.address = entry.spec.address;
    verdict.check = check;
    verdict.result = result;
    verdict.probe_at = *entry.last_probe_at;
    auto vantage = entry.machine.checkers().find(kLocalChecker);
    if (vantage != entry.machine.checkers().end()) {
      verdict.state = vantage->second.state;
      verdict.checks = vantage->second.checks;
    }
    std::vector<CheckSettings> single;
    for (const auto& settings : checks_of(entry.spec, single)) verdict.interval = std::max(verdict.interval, settings.interval);
    verdict_observer_(verdict);
  }
  verdicts_.notify_all();
}

void HealthMonitor::changed(Entry& entry, const std::string& reason) {
  if (entry.machine.quorum_lost() != entry.last_quorum_lost) {
    entry.last_quorum_lost = entry.machine.quorum_lost();
    std::size_t reporting = 0;
    for (const auto& [name, view] : entry.machine.checkers()) reporting += view.state != HealthState::kUnknown ? 1 : 0;
    const QuorumRule& rule = entry.spec.quorum;
    std::string needed = rule.kind == QuorumRule::Kind::kHealthyAbove ? "1" : std::to_string(rule.quorum);
    logger_.log(entry.last_quorum_lost ? base::LogLevel::kWarn : base::LogLevel::kInfo,
                entry.last_quorum_lost ? "health.quorum_lost" : "health.quorum_regained",
                {{"pool", entry.spec.pool},
                 {"endpoint", entry.spec.address},
                 {"reporting", std::to_string(reporting)},
                 {"needed", needed},
                 {"held", state_to_text(entry.machine.health())},
                 {"reason", reason}});
  }
  HealthState now_effective = entry.machine.effective();
  if (now_effective == entry.last_effective) return;
  TransitionRecord record{entry.last_effective, now_effective, clock_.wall_now(), reason};
  entry.transitions.push_back(record);
  if (entry.transitions.size() > kTransitionHistory) entry.transitions.pop_front();
  ++entry.stats.transitions;
  entry.counters.record(entry.last_effective, now_effective, clock_.now(), record.at);
  entry.last_effective = now_effective;
  auto level = now_effective == HealthState::kDown ? base::LogLevel::kWarn : base::LogLevel::kInfo;
  logger_.log(level, "health.transition",
              {{"pool", entry.spec.pool},
               {"endpoint", entry.spec.address},
               {"from", state_to_text(record.from)},
               {"to", state_to_text(record.to)},
               {"override", override_to_text(entry.machine.override_value())},
               {"reason", reason}});
}

void HealthMonitor::set_suspect_after(std::chrono::milliseconds suspect_after) {
  std::lock_guard lock(mutex_);
  suspect_after_ = suspect_after;
  for (auto& entry : entries_) entry->suspicion.set_suspect_after(suspect_after);
}

void HealthMonitor::track_suspicion(Entry& entry) {
  if (!suspect_after_) return;
  entry.suspicion.set_suspect_after(*suspect_after_);
  std::map<std::string, HealthState> states;
  for (const auto& [name, view] : entry.machine.checkers()) states.emplace(name, view.state);
  for (const auto& change : entry.suspicion.update(states, clock_.now())) {
    logger_.log(change.suspect ? base::LogLevel::kWarn : base::LogLevel::kInfo,
                change.suspect ? "cluster.vantage_suspect" : "cluster.vantage_trusted",
                {{"pool", entry.spec.pool},
                 {"endpoint", entry.spec.address},
                 {"vantage", change.vantage},
                 {"state", state_to_text(change.state)},
                 {"majority", state_to_text(change.majority)},
                 {"suspect_after_ms", std::to_string(suspect_after_->count())}});
  }
}

std::uint64_t HealthMonitor::request_publish() {
  if (!oldest_pending_) oldest_pending_ = std::chrono::steady_clock::now();
  publish_wake_.notify_one();
  return ++requested_;
}

void HealthMonitor::wait_published(std::uint64_t sequence) {
  std::unique_lock lock(mutex_);
  published_cv_.wait(lock, [&] { return published_ >= sequence || stopping_; });
}

void HealthMonitor::publish_loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    publish_wake_.wait(lock, [this] { return stopping_ || requested_ > published_; });
    if (stopping_) return;
    std::uint64_t covered = requested_;
    auto since = *oldest_pending_;
    oldest_pending_.reset();
    auto snapshot = std::make_shared<HealthSnapshot>();
    snapshot->version = ++version_;
    snapshot->endpoints.reserve(entries_.size());
    for (const auto& entry : entries_) {
      snapshot->endpoints.push_back(EndpointView{entry->spec.pool, entry->spec.address, entry->machine.effective(),
                                                 entry->machine.serving(), entry->machine.suspicion_deadline(),
                                                 entry->machine.override_value() == Override::kDrain,
                                                 entry->machine.quorum_lost()});
    }
    snapshot_ = snapshot;
    lock.unlock();
    if (listener_) listener_(snapshot);  // builds and swaps the answers; checkers keep reporting meanwhile
    auto took = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - since);
    logger_.debug("health.published", {{"version", std::to_string(snapshot->version)},
                                       {"changes", std::to_string(covered - published_)},
                                       {"change_to_answer_us", std::to_string(took.count())}});
    lock.lock();
    published_ = covered;
    published_cv_.notify_all();
  }
}

void HealthMonitor::tick_loop() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    tick_wake_.wait_for(lock, tick_period_, [this] { return stopping_; });
    if (stopping_) return;
    bool any = false;
    for (auto& entry : entries_) {
      bool moved = entry->machine.tick(clock_.now());
      // Every tick, so a disagreement is found suspect within one tick of suspect-after.
      track_suspicion(*entry);
      if (!moved) continue;
      changed(*entry, fmt::format("checker stalled: no probe result for {} intervals", kStallIntervals));
      any = true;
    }
    if (any) request_publish();
  }
}

bool HealthMonitor::wait_for_first_verdicts(std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  return verdicts_.wait_for(lock, limit, [this] {
    return std::all_of(entries_.begin(), entries_.end(), [](const auto& entry) {
      return !entry->spec.wait_for_first_check || entry->machine.health() != HealthState::kUnknown;
    });
  });
}

base::Status HealthMonitor::report_vantage(const std::string& pool, const std::string& address,
                                           const std::string& vantage, HealthState state, const std::string& reason) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto& entry) {
    return entry->spec.pool == pool && entry->spec.address == address;
  });
  if (it == entries_.end()) {
    return base::make_error(base::ErrorCode::kNotFound, fmt::format("pool {} has no endpoint {}", pool, address));
  }
  if ((*it)->machine.set_vantage(vantage, state, clock_.now())) {
    changed(**it, fmt::format("vantage {} says {}: {}", vantage, state_to_text(state), reason));
    request_publish();
  }
  track_suspicion(**it);
  return {};
}

base::Status HealthMonitor::forget_vantage(const std::string& pool, const std::string& address,
                                           const std::string& vantage) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto& entry) {
    return entry->spec.pool == pool && entry->spec.address == address;
  });
  if (it == entries_.end()) {
    return base::make_error(base::ErrorCode::kNotFound, fmt::format("pool {} has no endpoint {}", pool, address));
  }
  if ((*it)->machine.remove_vantage(vantage, clock_.now())) {
    changed(**it, fmt::format("vantage {}: verdict expired or deleted", vantage));
    request_publish();
  }
  track_suspicion(**it);
  return {};
}

base::Status HealthMonitor::set_override(const std::string& pool, const std::string& address, Override value) {
  std::uint64_t sequence = 0;
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto& entry) {
      return entry->spec.pool == pool && entry->spec.address == address;
    });
    if (it == entries_.end()) {
      return base::make_error(base::ErrorCode::kNotFound, fmt::format("pool {} has no endpoint {}", pool, address));
    }
    logger_.info("health.override", {{"pool", pool}, {"endpoint", address}, {"override", override_to_text(value)}});
    if ((*it)->machine.set_override(value, clock_.now())) {
      changed(**it, std::string("operator override ") + override_to_text(value));
      sequence = request_publish();
    }
  }
  wait_published(sequence);  // the caller's next query sees the override
  return {};
}

std::shared_ptr<const HealthSnapshot> HealthMonitor::snapshot() const {
  std::lock_guard lock(mutex_);
  return snapshot_;
}

std::vector<EndpointReport> HealthMonitor::reports() const {
  std::lock_guard lock(mutex_);
  std::vector<EndpointReport> out;
  out.reserve(entries_.size());
  for (const auto& entry : entries_) {
    EndpointReport report;
    report.pool = entry->spec.pool;
    report.address = entry->spec.address;
    report.probe_port = entry->targets.empty() ? 0 : entry->targets.front().port;
    report.check = entry->spec.check;
    report.combine = entry->spec.combine;
    std::vector<CheckSettings> single;
    const auto& checks = checks_of(entry->spec, single);
    const auto& local = entry->machine.checkers();
    auto vantage = local.find(kLocalChecker);
    for (std::size_t i = 0; i < entry->targets.size() && i < checks.size(); ++i) {
      CheckReport check;
      check.settings = checks[i];
      check.address = entry->targets[i].address;
      check.port = entry->targets[i].port;
      if (vantage != local.end() && i < vantage->second.checks.size()) check.local = vantage->second.checks[i];
      check.last_result = entry->last_results[i];
      check.last_probe_at = entry->last_probes_at[i];
      report.checks.push_back(std::move(check));
    }
    report.health = entry->machine.health();
    report.effective = entry->machine.effective();
    report.override_value = entry->machine.override_value();
    report.serving = entry->machine.serving();
    report.checkers = entry->machine.checkers();
    report.quorum = entry->spec.quorum;
    report.quorum_lost = entry->machine.quorum_lost();
    report.suspicion_tracked = suspect_after_.has_value();
    for (const auto& [name, view] : entry->machine.checkers()) {
      if (entry->suspicion.suspect(name)) report.suspect_vantages.insert(name);
    }
    report.last_result = entry->last_result;
    report.last_probe_at = entry->last_probe_at;
    report.cert_days_left = entry->cert_days_left;
    report.transitions = entry->transitions;
    report.stats = entry->stats;
    report.down_total = entry->counters.down_total(clock_.now());
    report.flaps_last_hour = entry->counters.flaps_last_hour(clock_.now());
    report.last_change = entry->counters.last_change();
    report.probe_history = entry->probes.size();
    report.probe_history_capacity = entry->probes.capacity();
    out.push_back(std::move(report));
  }
  return out;
}

std::vector<EndpointProbes> HealthMonitor::probes_after(std::uint64_t after, std::uint64_t& last) const {
  std::lock_guard lock(mutex_);
  std::vector<EndpointProbes> out;
  auto now = clock_.now();
  for (const auto& entry : entries_) {
    EndpointProbes probes{entry->spec.pool, entry->spec.address, entry->probes.after(after, now)};
    if (!probes.ticks.empty()) out.push_back(std::move(probes));
  }
  last = probe_sequence_;
  return out;
}

}  // namespace cutover::health
