// The pool kind of the write pipeline: target state, floor, whole-state entries; replay at start; undo.
#include "pool/writes/pool_writes.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "pool/config/pool_config.h"
#include "store/fence.h"
#include "store/api/record_json.h"

namespace cutover::pool {
namespace {

using store::WriteStatus;

std::unique_ptr<PoolJournal> open_journal(const std::string& path) {
  auto journal = PoolJournal::open(path);
  if (!journal) throw config::ConfigError("writes.journal: " + journal.error().message);
  return std::move(*journal);
}

bool all_drained(const PoolSpec& spec, const PoolState& state) {
  return std::all_of(spec.endpoints.begin(), spec.endpoints.end(), [&](const EndpointSpec& endpoint) {
    auto it = state.overrides.find(endpoint.address);
    return it != state.overrides.end() && it->second == health::Override::kDrain;
  });
}

}  // namespace

PoolWrites::PoolWrites(PoolRuntime& pools, const config::Config& config, base::Logger& logger)
    : PoolWrites(pools, config, logger, open_journal(config.writes.journal), false) {}

PoolWrites::PoolWrites(PoolRuntime& pools, const config::Config& config, base::Logger& logger,
                       std::shared_ptr<store::JournalStorage> shared_storage)
    : PoolWrites(pools, config, logger, std::make_unique<PoolJournal>(std::move(shared_storage)), true) {}

PoolWrites::PoolWrites(PoolRuntime& pools, const config::Config& config, base::Logger& logger,
                       std::unique_ptr<PoolJournal> journal, bool shared)
    : pools_(pools), logger_(logger), journal_(std::move(journal)), shared_(shared),
      pipeline_(journal_->storage(), logger, store::wall_clock()), config_(config) {
  const std::string& where = journal_->storage()->where();
  auto loaded = journal_->load();
  if (!loaded && shared_) {
    // Another server's storage down at start loses nothing: the pools start from the
    // config, and the cluster's watch takes the journaled states once it can (sync_all).
    logger_.warn("pool_journal.unreachable", {{"journal", where}, {"error", loaded.error().message}});
    return;
  }
  if (!loaded) throw config::ConfigError("writes.journal: " + loaded.error().message);
  if (loaded->dropped_torn_tail) logger_.warn("pool_journal.torn_tail_dropped", {{"journal", where}});
  std::vector<PoolSpec> specs;
  for (const auto& [entry, mark] : loaded->pools) {
    auto json = nlohmann::json::parse(entry.state, nullptr, false);
    auto state = pool_state_from_json(json);
    if (!state) throw config::ConfigError(fmt::format("writes.journal: pool {}: {}", entry.pool, state.error().message));
    state->version = mark.version;
    state->plan_version = mark.plan_version;
    if (state->settings) {
      auto spec = read_settings(entry.pool, *state->settings);
      if (!spec) {
        throw config::ConfigError(fmt::format("writes.journal: pool {} (version {}) made through the API no longer "
                                              "reads: {}",
                                              entry.pool, entry.version, spec.error().message));
      }
      api_specs_[entry.pool] = *spec;
      specs.push_back(std::move(*spec));
    }
    states_[entry.pool] = std::move(*state);
  }
  // Before the pool service starts: it then serves config and API pools from its first answer.
  (void)pools_.set_api_pools(std::move(specs));
  logger_.info("pool_journal.replayed", {{"pools", std::to_string(states_.size())},
                                         {"api_pools", std::to_string(api_specs_.size())},
                                         {"journal", where}});
}

base::Status PoolWrites::start() {
  std::lock_guard lock(mutex_);
  for (const auto& [pool, state] : states_) {
    for (const auto& [address, value] : state.overrides) {
      auto done = pools_.set_override(pool, address, value, "journal");
      // A config pool or endpoint removed from the file since: its override has nothing to act on.
      if (!done) logger_.warn("pool_journal.override_unused", {{"pool", pool}, {"endpoint", address}});
    }
  }
  return {};
}

base::Status PoolWrites::reload(const config::Config& next) {
  std::lock_guard lock(mutex_);
  config_ = next;
  return {};
}

base::Result<PoolSpec> PoolWrites::read_settings(const std::string& pool, const nlohmann::json& settings) const {
  PoolSpec spec;
  try {
    spec = read_pool(pool, settings.dump(), "body", config_);
  } catch (const config::ConfigError& e) {
    return base::make_error(base::ErrorCode::kInvalidArgument, e.what());
  }
  if (auto refusal = api_refusal(spec, "body")) return base::make_error(base::ErrorCode::kInvalidArgument, *refusal);
  return spec;
}

base::Result<std::vector<PoolSpec>> PoolWrites::api_specs_with(const std::string& pool,
                                                                     const std::optional<nlohmann::json>& settings) const {
  std::vector<PoolSpec> specs;
  for (const auto& [id, spec] : api_specs_) {
    if (id != pool) specs.push_back(spec);
  }
  if (settings) {
    auto spec = read_settings(pool, *settings);
    if (!spec) return spec.error();
    specs.push_back(std::move(*spec));
  }
  return specs;
}

std::optional<std::string> PoolWrites::floor_problem(const std::string& pool, const PoolState& before,
                                                     const PoolState& after,
                                                     const std::optional<PoolSpec>& spec_after) const {
  if (before.settings && !after.settings) {
    return fmt::format("pool {} would be deleted and its name {} would answer no address (allow_empty to delete it)",
                       pool, api_specs_.at(pool).owner.to_text());
  }
  if (!spec_after || !all_drained(*spec_after, after)) return std::nullopt;
  auto spec_before = pools_.find_pool(pool);
  if (spec_before && all_drained(*spec_before, before)) return std::nullopt;  // nothing serving to lose
  return fmt::format("pool {} would have no endpoint left: every one of its {} endpoints would be drained "
                     "(allow_empty to drain them all)",
                     pool, spec_after->endpoints.size());
}

// A pool write as the write pipeline drives it (store/write_pipeline.h). The target state
// is computed from the current one and kept apart from what is served until publish(), so
// a refusal or a dry run leaves nothing to put back.
class PoolWrites::PoolWrite : public store::PendingWrite {
 public:
  PoolWrite(PoolWrites& writes, PoolWriteRequest& request, const PoolState& current, PoolWriteResult& result)
      : writes_(writes), request_(request), current_(current), result_(result) {}

  store::Step prepare() override {
    const std::string& pool = request_.pool;
    bool config_pool = writes_.pools_.is_config_pool(pool);
    std::string read_only =
        fmt::format("pool {} is defined in the config file: change it there (the API sets only its overrides)", pool);
    auto target = request_.change(current_);
    if (!target) {
      if (target.error().code != base::ErrorCode::kNotFound) return bad_input(target.error().message);
      if (config_pool) return store::Refusal{WriteStatus::kConflict, read_only};
      return store::Refusal{WriteStatus::kNotFound, target.error().message};
    }
    target_ = std::move(*target);
    if (config_pool && target_.settings) return store::Refusal{WriteStatus::kConflict, read_only};
    auto specs = writes_.api_specs_with(pool, target_.settings);
    if (!specs) return bad_input(specs.error().message);
    specs_ = std::move(*specs);
    if (config_pool) spec_after_ = writes_.pools_.find_pool(pool);
    if (target_.settings) spec_after_ = specs_.back();
    // Overrides belong to endpoints: those of endpoints the write removes go with them.
    for (auto it = target_.overrides.begin(); it != target_.overrides.end();) {
      bool known = spec_after_ && std::any_of(spec_after_->endpoints.begin(), spec_after_->endpoints.end(),
                                              [&](const auto& endpoint) { return endpoint.address == it->first; });
      bool asked = !current_.overrides.contains(it->first) || current_.overrides.at(it->first) != it->second;
      if (known) {
        ++it;
      } else if (asked) {
        return store::Refusal{WriteStatus::kNotFound, fmt::format("pool {} has no endpoint {}", pool, it->first)};
      } else {
        it = target_.overrides.erase(it);
      }
    }
    return std::nullopt;
  }

  bool changes_anything() const override { return !target_.same_content(current_); }

  std::optional<std::string> floor_violation() const override {
    return writes_.floor_problem(request_.pool, current_, target_, spec_after_);
  }

  store::Step finish() override {
    if (auto checked = writes_.pools_.check_api_pools(specs_); !checked) {
      return store::Refusal{WriteStatus::kInvalid, checked.error().message};
    }
    result_.answer_before = writes_.pools_.current_answer(request_.pool);
    return std::nullopt;
  }

  void preview() override {
    result_.after = target_;
    result_.answer_after = writes_.pools_.preview(request_.pool, specs_, target_.overrides);
  }

  std::vector<std::uint8_t> entry_body() const override { return pool_entry_body(pool_state_json(target_).dump()); }

  // The checker probes new endpoints, and the next query sees the new answer.
  void publish(const store::StoredEntry&, const store::StreamMark& mark) override {
    const std::string& pool = request_.pool;
    target_.version = mark.version;
    target_.plan_version = mark.plan_version;
    writes_.install_locked(pool, current_, target_, specs_, request_.who);
    writes_.logger_.info("pool_write.applied", {{"pool", pool}, {"version", std::to_string(target_.version)},
                                                {"who", request_.who}, {"what", request_.what}});
    result_.after = target_;
    result_.answer_after = writes_.pools_.current_answer(pool);
  }

  bool request_was_bad() const { return bad_input_; }

 private:
  store::Step bad_input(std::string message) {
    bad_input_ = true;
    return store::Refusal{WriteStatus::kInvalid, std::move(message)};
  }

  PoolWrites& writes_;
  PoolWriteRequest& request_;
  const PoolState& current_;
  PoolWriteResult& result_;
  PoolState target_;
  std::vector<PoolSpec> specs_;
  std::optional<PoolSpec> spec_after_;
  bool bad_input_ = false;
};

store::WriteSubject PoolWrites::subject_locked(const std::string& pool) const {
  auto it = states_.find(pool);
  store::StreamMark mark = it == states_.end() ? store::StreamMark{} : store::StreamMark{it->second.version,
                                                                                       it->second.plan_version};
  return store::WriteSubject{"pool " + pool, store::pool_stream(pool), mark};
}

PoolWriteResult PoolWrites::write(PoolWriteRequest request) {
  std::lock_guard lock(mutex_);
  return write_locked(request);
}

void PoolWrites::install_locked(const std::string& pool, const PoolState& before, const PoolState& after,
                                const std::vector<PoolSpec>& specs, const std::string& who) {
  if (after.settings != before.settings) {
    // Checked before (finish(), or sync's read) under the same lock, so only a probe that
    // cannot be created fails here.
    if (auto applied = pools_.set_api_pools(specs); !applied) {
      logger_.error("pool_write.apply_failed", {{"pool", pool}, {"reason", applied.error().message}});
    }
    if (after.settings) {
      api_specs_[pool] = specs.back();
    } else {
      api_specs_.erase(pool);
    }
  }
  apply_overrides(pool, before, after, who);
  states_[pool] = after;
}

base::Status PoolWrites::sync(const std::string& pool) {
  std::lock_guard lock(mutex_);
  return sync_locked(pool);
}

base::Status PoolWrites::sync_all() {
  auto streams = journal_->storage()->streams("pool ");
  if (!streams) return streams.error();
  std::lock_guard lock(mutex_);
  base::Status outcome;
  for (const auto& stream : *streams) {
    if (auto synced = sync_locked(stream.substr(5)); !synced && outcome) outcome = synced;
  }
  return outcome;
}

base::Status PoolWrites::sync_locked(const std::string& pool) {
  const auto& storage = journal_->storage();
  const std::string stream = store::pool_stream(pool);
  const PoolState before = states_.contains(pool) ? states_.at(pool) : PoolState{};
  store::StreamMark mark = storage->mark(stream);
  if (mark.version <= before.version) return {};
  // Entries hold whole states: the newest is the state.
  auto read = storage->read(stream, mark.version - 1, store::TornTail::kFail);
  if (!read) return read.error();
  if (read->entries.empty()) {
    return base::make_error(base::ErrorCode::kIo,
                            fmt::format("pool {}: version {} is not in {}", pool, mark.version, storage->where()));
  }
  const store::StoredEntry& newest = read->entries.back();
  auto json = nlohmann::json::parse(pool_entry(newest).state, nullptr, false);
  auto state = pool_state_from_json(json);
  auto refuse = [&](const std::string& why) {
    logger_.error("pool_sync.unreadable", {{"pool", pool}, {"version", std::to_string(newest.version)}, {"error", why}});
    return base::make_error(base::ErrorCode::kMalformed, fmt::format("pool {} version {}: {}", pool, newest.version, why));
  };
  if (!state) return refuse(state.error().message);
  state->version = newest.version;
  state->plan_version = std::max(mark.plan_version, newest.plan_version);
  auto specs = api_specs_with(pool, state->settings);
  if (!specs) return refuse(specs.error().message);
  install_locked(pool, before, *state, *specs, newest.who.empty() ? "cluster" : newest.who);
  logger_.info("pool_sync.applied", {{"pool", pool}, {"version", std::to_string(state->version)},
                                     {"who", newest.who}, {"what", newest.what}});
  return {};
}

PoolWriteResult PoolWrites::write_locked(PoolWriteRequest& request) {
  // Another server may have written this pool since: the fence compares with the newest.
  if (shared_) {
    if (auto synced = sync_locked(request.pool); !synced) {
      logger_.warn("pool_sync.failed", {{"pool", request.pool}, {"error", synced.error().message}});
    }
  }
  const PoolState current = states_.contains(request.pool) ? states_.at(request.pool) : PoolState{};
  PoolWriteResult result;
  result.before = current;
  PoolWrite write(*this, request, current, result);
  store::WriteOutcome outcome = pipeline_.run(subject_locked(request.pool), request, write);
  result.status = outcome.status;
  result.message = std::move(outcome.message);
  result.bad_input = write.request_was_bad();
  result.version = outcome.mark.version;
  result.plan_version = outcome.mark.plan_version;
  if (outcome.status == WriteStatus::kConflict && shared_) {
    // Lost the storage's compare-and-set to another server: serve what won.
    (void)sync_locked(request.pool);
  }
  if (outcome.status == WriteStatus::kNoChange) {
    result.after = current;
    result.answer_before = pools_.current_answer(request.pool);
    result.answer_after = result.answer_before;
  }
  return result;
}

void PoolWrites::apply_overrides(const std::string& pool, const PoolState& before, const PoolState& after,
                                 const std::string& who) {
  if (!after.settings && !pools_.is_config_pool(pool)) return;  // the pool is gone, and its overrides with it
  auto value_in = [](const PoolState& state, const std::string& address) {
    auto it = state.overrides.find(address);
    return it == state.overrides.end() ? health::Override::kNone : it->second;
  };
  std::set<std::string> addresses;
  for (const auto& [address, value] : before.overrides) addresses.insert(address);
  for (const auto& [address, value] : after.overrides) addresses.insert(address);
  bool recreated = !before.settings && after.settings;
  for (const auto& address : addresses) {
    auto value = value_in(after, address);
    if (value == value_in(before, address) && !recreated) continue;
    // An endpoint the write removed has no override to clear (kNotFound).
    (void)pools_.set_override(pool, address, value, who);
  }
}

PoolWriteResult PoolWrites::undo(const std::string& pool, std::uint64_t to_version, PoolWriteRequest fence) {
  std::lock_guard lock(mutex_);
  if (shared_) (void)sync_locked(pool);
  // Pool entries hold whole states: the state at to_version is entry to_version's
  // (write_pipeline.h, undo_entries); before the first write (0) there was none.
  PoolState target;
  if (to_version > 0) {
    // A refusal before the write: the pool as it is now, and why.
    auto refused = [&](WriteStatus status, std::string message) {
      PoolWriteResult result;
      result.status = status;
      result.message = std::move(message);
      if (auto it = states_.find(pool); it != states_.end()) result.before = it->second;
      result.version = result.before.version;
      result.plan_version = result.before.plan_version;
      return result;
    };
    auto history = pipeline_.undo_entries(subject_locked(pool), to_version, to_version);
    if (history.refusal) return refused(history.refusal->status, std::move(history.refusal->message));
    auto json = nlohmann::json::parse(pool_entry(history.entries.front()).state, nullptr, false);
    auto state = pool_state_from_json(json);
    if (!state) return refused(WriteStatus::kIo, state.error().message);
    target = std::move(*state);
  }
  fence.pool = pool;
  fence.change = [target](const PoolState&) -> base::Result<PoolState> { return target; };
  if (fence.what.empty()) fence.what = fmt::format("undo to version {}", to_version);
  return write_locked(fence);
}

std::map<std::string, PoolState> PoolWrites::states() const {
  std::lock_guard lock(mutex_);
  auto states = states_;
  for (const auto& spec : config_pools(config_)) states.try_emplace(spec.name);
  return states;
}

base::Result<std::vector<PoolEntry>> PoolWrites::history(const std::string& pool, std::uint64_t after) {
  return journal_->history(pool, after);
}

}  // namespace cutover::pool
