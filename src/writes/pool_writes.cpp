// The pool write path: fence, target, floor, journal, apply; replay at start; undo.
#include "writes/pool_writes.h"

#include <algorithm>
#include <chrono>
#include <set>

#include <fmt/format.h>

#include "config/pool_config.h"
#include "store/fence.h"
#include "store/api/record_json.h"

namespace cutover::writes {
namespace {

using store::WriteStatus;

PoolWriteResult refused(WriteStatus status, std::string message, const PoolState& current) {
  PoolWriteResult result;
  result.status = status;
  result.message = std::move(message);
  result.version = current.version;
  result.plan_version = current.plan_version;
  result.before = current;
  return result;
}

PoolWriteResult bad_input(std::string message, const PoolState& current) {
  auto result = refused(WriteStatus::kInvalid, std::move(message), current);
  result.bad_input = true;
  return result;
}

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool all_drained(const pool::PoolSpec& spec, const PoolState& state) {
  return std::all_of(spec.endpoints.begin(), spec.endpoints.end(), [&](const pool::EndpointSpec& endpoint) {
    auto it = state.overrides.find(endpoint.address);
    return it != state.overrides.end() && it->second == health::Override::kDrain;
  });
}

}  // namespace

PoolWrites::PoolWrites(server::PoolRuntime& pools, const config::Config& config, base::Logger& logger)
    : pools_(pools), logger_(logger), config_(config) {
  auto journal = store::PoolJournal::open(config.writes.journal);
  if (!journal) throw config::ConfigError("writes.journal: " + journal.error().message);
  journal_ = std::move(*journal);
  auto loaded = journal_->load();
  if (!loaded) throw config::ConfigError("writes.journal: " + loaded.error().message);
  if (loaded->dropped_torn_tail) logger_.warn("pool_journal.torn_tail_dropped", {{"journal", config.writes.journal}});
  std::vector<pool::PoolSpec> specs;
  for (const auto& entry : loaded->latest) {
    auto json = nlohmann::json::parse(entry.state, nullptr, false);
    auto state = pool_state_from_json(json);
    if (!state) throw config::ConfigError(fmt::format("writes.journal: pool {}: {}", entry.pool, state.error().message));
    state->version = entry.version;
    state->plan_version = entry.plan_version;
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
                                         {"api_pools", std::to_string(api_specs_.size())}});
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

base::Result<pool::PoolSpec> PoolWrites::read_settings(const std::string& pool, const nlohmann::json& settings) const {
  pool::PoolSpec spec;
  try {
    spec = config::read_pool(pool, settings.dump(), "body", config_);
  } catch (const config::ConfigError& e) {
    return base::make_error(base::ErrorCode::kInvalidArgument, e.what());
  }
  if (auto refusal = config::api_refusal(spec, "body")) return base::make_error(base::ErrorCode::kInvalidArgument, *refusal);
  return spec;
}

base::Result<std::vector<pool::PoolSpec>> PoolWrites::api_specs_with(const std::string& pool,
                                                                     const std::optional<nlohmann::json>& settings) const {
  std::vector<pool::PoolSpec> specs;
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
                                                     const std::optional<pool::PoolSpec>& spec_after) const {
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

PoolWriteResult PoolWrites::write(PoolWriteRequest request) {
  std::lock_guard lock(mutex_);
  const std::string& pool = request.pool;
  PoolState current = states_.contains(pool) ? states_.at(pool) : PoolState{};
  // The fence of every write (store/fence.h): the same checks and texts as a zone write's.
  if (auto refusal = store::check_fence("pool " + pool, current.version, current.plan_version, request.expected_version,
                                        request.plan_version)) {
    return refused(refusal->status, std::move(refusal->message), current);
  }
  bool config_pool = pools_.is_config_pool(pool);
  std::string read_only =
      fmt::format("pool {} is defined in the config file: change it there (the API sets only its overrides)", pool);
  auto target = request.change(current);
  if (!target) {
    if (target.error().code != base::ErrorCode::kNotFound) return bad_input(target.error().message, current);
    return refused(config_pool ? WriteStatus::kConflict : WriteStatus::kNotFound,
                   config_pool ? read_only : target.error().message, current);
  }
  if (config_pool && target->settings) return refused(WriteStatus::kConflict, read_only, current);
  auto specs = api_specs_with(pool, target->settings);
  if (!specs) return bad_input(specs.error().message, current);
  std::optional<pool::PoolSpec> spec_after = config_pool ? pools_.find_pool(pool) : std::nullopt;
  if (target->settings) spec_after = specs->back();
  // Overrides belong to endpoints: those of endpoints the write removes go with them.
  for (auto it = target->overrides.begin(); it != target->overrides.end();) {
    bool known = spec_after && std::any_of(spec_after->endpoints.begin(), spec_after->endpoints.end(),
                                           [&](const auto& endpoint) { return endpoint.address == it->first; });
    bool asked = !current.overrides.contains(it->first) || current.overrides.at(it->first) != it->second;
    if (known) {
      ++it;
    } else if (asked) {
      return refused(WriteStatus::kNotFound, fmt::format("pool {} has no endpoint {}", pool, it->first), current);
    } else {
      it = target->overrides.erase(it);
    }
  }
  if (auto problem = floor_problem(pool, current, *target, spec_after); problem && !request.allow_empty) {
    return refused(WriteStatus::kFloor, *problem, current);
  }
  if (auto checked = pools_.check_api_pools(*specs); !checked) {
    return refused(WriteStatus::kInvalid, checked.error().message, current);
  }
  PoolWriteResult result;
  result.before = current;
  result.answer_before = pools_.current_answer(pool);
  result.version = current.version;
  result.plan_version = current.plan_version;
  if (target->same_content(current)) {
    result.status = WriteStatus::kNoChange;
    result.after = current;
    result.answer_after = result.answer_before;
    return result;
  }
  if (request.dry_run) {
    result.status = WriteStatus::kDryRun;
    result.after = *target;
    result.answer_after = pools_.preview(pool, *specs, target->overrides);
    return result;
  }
  store::PoolEntry entry;
  entry.pool = pool;
  entry.version = current.version + 1;
  entry.plan_version = request.plan_version.value_or(current.plan_version);
  entry.at_ms = now_ms();
  entry.who = request.who;
  entry.what = request.what;
  entry.state = pool_state_json(*target).dump();
  if (auto appended = journal_->append(entry); !appended) {
    return refused(WriteStatus::kIo, appended.error().message, current);
  }
  target->version = entry.version;
  target->plan_version = entry.plan_version;
  if (target->settings != current.settings) {
    // Checked above under this lock, so only a probe that cannot be created fails here.
    if (auto applied = pools_.set_api_pools(*specs); !applied) {
      logger_.error("pool_write.apply_failed", {{"pool", pool}, {"reason", applied.error().message}});
    }
    if (target->settings) {
      api_specs_[pool] = specs->back();
    } else {
      api_specs_.erase(pool);
    }
  }
  apply_overrides(pool, current, *target, request.who);
  states_[pool] = *target;
  logger_.info("pool_write.applied", {{"pool", pool}, {"version", std::to_string(target->version)},
                                      {"who", request.who}, {"what", request.what}});
  result.status = WriteStatus::kApplied;
  result.after = *target;
  result.version = target->version;
  result.plan_version = target->plan_version;
  result.answer_after = pools_.current_answer(pool);
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
  PoolState target;
  if (to_version > 0) {
    auto entries = journal_->history(pool, to_version - 1);
    if (!entries) return refused(WriteStatus::kIo, entries.error().message, PoolState{});
    if (entries->empty() || entries->front().version != to_version) {
      return refused(WriteStatus::kNotFound, fmt::format("pool {} has no version {} in its history", pool, to_version),
                     PoolState{});
    }
    auto state = pool_state_from_json(nlohmann::json::parse(entries->front().state, nullptr, false));
    if (!state) return refused(WriteStatus::kIo, state.error().message, PoolState{});
    target = std::move(*state);
  }
  fence.pool = pool;
  fence.change = [target](const PoolState&) -> base::Result<PoolState> { return target; };
  if (fence.what.empty()) fence.what = fmt::format("undo to version {}", to_version);
  return write(std::move(fence));
}

std::map<std::string, PoolState> PoolWrites::states() const {
  std::lock_guard lock(mutex_);
  auto states = states_;
  for (const auto& spec : config_.pools) states.try_emplace(spec.name);
  return states;
}

base::Result<std::vector<store::PoolEntry>> PoolWrites::history(const std::string& pool, std::uint64_t after) {
  return journal_->history(pool, after);
}

}  // namespace cutover::writes
