// Materialize mode: pool answer snapshots -> one journaled write per changed pool.
#include "pool/writes/pool_materializer.h"

#include <algorithm>

#include <fmt/format.h>

#include "pool/pool_detection.h"

namespace cutover::pool {
namespace {

// A journal that failed (disk full, I/O error) is tried again this often.
constexpr std::chrono::seconds kRetryAfterIoError{1};

store::Edit rrset_edit(const MaterializedRecords& records, dns::RRType type, std::vector<dns::Rdata> rdatas) {
  store::Edit edit;
  edit.owner = records.owner;
  edit.type = type;
  if (rdatas.empty()) {
    edit.op = store::Edit::Op::kDeleteRRset;
    return edit;
  }
  edit.op = store::Edit::Op::kReplaceRRset;
  edit.ttl = records.ttl;
  edit.rdatas = std::move(rdatas);
  return edit;
}

// Until every endpoint has a verdict the answer rests on `unknown` (counted as up). A
// checker that never reports must not keep the name unwritten forever: after the slowest
// possible first verdict (D_max) plus one interval of start spread, write what is known.
std::chrono::milliseconds first_verdict_wait(const PoolSpec& spec) {
  std::chrono::milliseconds interval{0};
  for (const auto& endpoint : spec.endpoints) interval = std::max(interval, endpoint.check.interval);
  return detection_window(spec).d_max + interval;
}

}  // namespace

std::vector<store::Edit> materialize_edits(const MaterializedRecords& records) {
  std::vector<dns::Rdata> marker;
  if (records.marker) marker.push_back(*records.marker);
  return {rrset_edit(records, dns::RRType::A, records.a), rrset_edit(records, dns::RRType::AAAA, records.aaaa),
          rrset_edit(records, dns::RRType::TXT, std::move(marker))};
}

PoolMaterializer::PoolMaterializer(store::Store& store, const base::Clock& clock, base::Logger& logger)
    : store_(store), clock_(clock), logger_(logger) {}

PoolMaterializer::~PoolMaterializer() { stop(); }

void PoolMaterializer::configure(const std::vector<PoolSpec>& specs) {
  std::lock_guard lock(pools_mutex_);
  std::map<std::string, PoolState> next;
  for (const auto& spec : specs) {
    if (spec.serve != ServeMode::kMaterialize) continue;
    PoolState state;
    state.first_write_deadline = clock_.now() + first_verdict_wait(spec);
    auto previous = pools_.find(spec.name);
    // A pool that stays keeps what it wrote: a reload alone writes nothing.
    if (previous != pools_.end() && previous->second.written && previous->second.written->owner == spec.owner) {
      state = previous->second;
    }
    next[spec.name] = std::move(state);
  }
  pools_ = std::move(next);
}

void PoolMaterializer::submit(std::shared_ptr<const PoolAnswers> answers) {
  std::lock_guard lock(mutex_);
  latest_ = std::move(answers);
  ++submitted_;
  changed_.notify_all();
}

void PoolMaterializer::annotate(const std::string& pool, const std::string& who, const std::string& cause) {
  std::lock_guard lock(mutex_);
  causes_[pool] = Cause{who, cause, submitted_};
}

void PoolMaterializer::clear_annotation(const std::string& pool) {
  std::lock_guard lock(mutex_);
  causes_.erase(pool);
}

bool PoolMaterializer::flush(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!running_) return false;
  std::uint64_t target = submitted_;
  return changed_.wait_for(lock, timeout, [&] { return done_ >= target || stopping_; }) && done_ >= target;
}

void PoolMaterializer::start() {
  std::lock_guard lock(mutex_);
  if (running_) return;
  running_ = true;
  thread_ = std::thread([this] { run(); });
}

void PoolMaterializer::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    changed_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  running_ = false;
}

void PoolMaterializer::run() {
  std::unique_lock lock(mutex_);
  std::optional<base::SteadyTime> wake_at;
  auto ready = [this] { return stopping_ || taken_ != submitted_; };
  while (!stopping_) {
    if (wake_at) {
      changed_.wait_for(lock, *wake_at - clock_.now(), ready);
    } else {
      changed_.wait(lock, ready);
    }
    if (stopping_) break;
    // Only the newest snapshot is written: it already contains every earlier change.
    std::shared_ptr<const PoolAnswers> answers = latest_;
    std::uint64_t ticket = submitted_;
    taken_ = ticket;
    lock.unlock();
    Pass pass = answers ? write_changes(*answers, ticket) : Pass{};
    lock.lock();
    done_ = ticket;
    wake_at = pass.wake_at;
    changed_.notify_all();
  }
}

std::optional<dns::Name> PoolMaterializer::zone_of(const dns::Name& owner) const {
  std::optional<dns::Name> best;
  for (const auto& origin : store_.zone_names()) {
    if (owner.is_subdomain_of(origin) && (!best || origin.label_count() > best->label_count())) best = origin;
  }
  return best;
}

std::optional<PoolMaterializer::Cause> PoolMaterializer::take_cause(const std::string& pool, std::uint64_t ticket) {
  std::lock_guard lock(mutex_);
  auto it = causes_.find(pool);
  if (it == causes_.end() || it->second.after_ticket >= ticket) return std::nullopt;
  Cause cause = std::move(it->second);
  causes_.erase(it);
  return cause;
}

PoolMaterializer::Pass PoolMaterializer::write_changes(const PoolAnswers& answers, std::uint64_t ticket) {
  Pass pass;
  auto wake = [&pass](base::SteadyTime at) {
    if (!pass.wake_at || at < *pass.wake_at) pass.wake_at = at;
  };
  std::lock_guard lock(pools_mutex_);
  base::SteadyTime now = clock_.now();
  for (const auto& answer : answers.pools()) {
    auto it = pools_.find(answer.pool);
    if (it == pools_.end()) continue;
    PoolState& state = it->second;
    std::optional<Cause> cause = take_cause(answer.pool, ticket);
    if (!answer.settled && now < state.first_write_deadline) {
      wake(state.first_write_deadline);
      continue;
    }
    MaterializedRecords records = materialized_records(answer);
    if (state.written && state.written->same_records(records)) {
      if (cause) logger_.info("pool.override_unchanged", {{"pool", answer.pool}, {"override", cause->what}});
      continue;
    }
    auto zone = zone_of(answer.owner);
    if (!zone) {
      logger_.error("pool.materialize_failed", {{"pool", answer.pool}, {"reason", "no zone holds the pool's name"}});
      continue;
    }
    store::WriteRequest request;
    request.zone = *zone;
    request.edits = materialize_edits(records);
    // Only the pool's own nodata policy may take the name's last address away.
    request.allow_empty = records.emptied_by_policy;
    request.who = cause ? fmt::format("{} (pool:{})", cause->who, answer.pool) : "pool:" + answer.pool;
    request.what = fmt::format("{} -> {}", cause ? cause->what : "health", records.summary);
    store::WriteResult result = store_.write(std::move(request));
    if (result.ok()) {
      state.written = records;
      logger_.info("pool.materialized", {{"pool", answer.pool},
                                         {"status", store::write_status_text(result.status)},
                                         {"version", std::to_string(result.version)},
                                         {"serial", std::to_string(result.serial)},
                                         {"answer", records.summary}});
    } else {
      logger_.error("pool.materialize_failed", {{"pool", answer.pool},
                                                {"status", store::write_status_text(result.status)},
                                                {"reason", result.message}});
      if (result.status == store::WriteStatus::kIo) wake(now + kRetryAfterIoError);
    }
    pass.writes.push_back(std::move(result));
  }
  return pass;
}

}  // namespace cutover::pool
