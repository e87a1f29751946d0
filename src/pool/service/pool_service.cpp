// PoolService: config -> monitored endpoints; health snapshot -> pool answers -> Server.
#include "pool/service/pool_service.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include <fmt/format.h>

#include "pool/config/pool_config.h"
#include "pool/monitored_endpoints.h"
#include "pool/pool_detection.h"
#include "pool/pool_placement.h"

namespace cutover::pool {
namespace {

// How long an override on a materialized pool waits for its journaled write before replying.
constexpr std::chrono::seconds kOverrideWriteWait{10};

bool is_materialized(const std::vector<PoolSpec>& specs, const std::string& pool) {
  return std::any_of(specs.begin(), specs.end(), [&](const PoolSpec& spec) {
    return spec.name == pool && spec.serve == ServeMode::kMaterialize;
  });
}

// The answers the engine serves per query: `answers` itself when no pool is materialized,
// else a copy without the materialized pools.
std::shared_ptr<const PoolAnswers> per_query_only(const std::shared_ptr<const PoolAnswers>& answers,
                                                        const std::vector<PoolSpec>& specs) {
  bool any = std::any_of(specs.begin(), specs.end(),
                         [](const PoolSpec& spec) { return spec.serve == ServeMode::kMaterialize; });
  if (!any) return answers;
  std::vector<PoolAnswer> kept;
  for (const auto& answer : answers->pools()) {
    if (!is_materialized(specs, answer.pool)) kept.push_back(answer);
  }
  return std::make_shared<const PoolAnswers>(std::move(kept));
}

}  // namespace

PoolService::PoolService(server::Server& server, base::Logger& logger)
    : server_(server), logger_(logger) {
  health::register_builtin_probes(probes_);
  register_builtin_policies(policies_);
  builder_ = std::make_unique<AnswerBuilder>(policies_, std::vector<PoolSpec>{});
  monitor_ = std::make_unique<health::HealthMonitor>(
      probes_, clock_, logger_, [this](std::shared_ptr<const health::HealthSnapshot> snapshot) { on_health(snapshot); });
  server_.add_query_observer([this](std::span<const auth::QueryOutcome> outcomes) {
    // Counted locally first: one atomic add per rcode seen in the batch, not one per query
    // (the counters' cache line would otherwise bounce between the listener threads). Only
    // the rcodes seen are touched (`seen`, one bit each): a batch at a low rate is one query,
    // and clearing and scanning all 16 counters cost more than counting it.
    static_assert(std::tuple_size_v<decltype(rcodes_)> <= 32);
    std::array<std::uint64_t, std::tuple_size_v<decltype(rcodes_)>> counts;  // valid where `seen` has a bit
    std::uint32_t seen = 0;
    for (const auto& outcome : outcomes) {
      if (!outcome.respond) continue;
      auto code = static_cast<std::size_t>(outcome.rcode);
      if (code < counts.size()) {
        std::uint32_t bit = std::uint32_t{1} << code;
        if ((seen & bit) == 0) counts[code] = 0;
        seen |= bit;
        ++counts[code];
      }
      if (outcome.dynamic != nullptr && outcome.dynamic->counters) {
        outcome.dynamic->counters->queries.fetch_add(1, std::memory_order_relaxed);
      }
    }
    for (; seen != 0; seen &= seen - 1) {
      auto code = static_cast<std::size_t>(std::countr_zero(seen));
      rcodes_[code].fetch_add(counts[code], std::memory_order_relaxed);
    }
  });
}

PoolService::~PoolService() { stop(); }

base::Status PoolService::start() {
  std::vector<PoolSpec> specs;
  {
    std::lock_guard lock(apply_mutex_);
    config_specs_ = config_pools(server_.config());
    auto all = merged(config_specs_, api_specs_);
    if (!all) return all.error();
    specs = std::move(*all);
    auto applied = apply(specs);
    if (!applied) return applied;
    started_ = true;
  }
  std::chrono::milliseconds first_round{0};
  for (const auto& spec : specs) {
    health::DetectionWindow window = served_detection_window(spec);
    logger_.info("pool.configured", {{"pool", spec.name},
                                     {"name", spec.owner.to_text()},
                                     {"shape", spec.shape},
                                     {"endpoints", std::to_string(spec.endpoints.size())},
                                     {"d_min_ms", std::to_string(window.d_min.count())},
                                     {"d_max_ms", std::to_string(window.d_max.count())},
                                     {"ttl", std::to_string(spec.ttl)},
                                     {"worst_d_plus_k_ms", std::to_string(window.worst_d_plus_k.count())}});
    if (!spec.wait_for_first_check) continue;
    for (const auto& endpoint : spec.endpoints) {
      first_round = std::max(first_round, endpoint.check.interval + endpoint.check.timeout);
    }
  }
  // Called before the listeners open, so waiting here is what delays the first answers.
  if (first_round.count() > 0 && !monitor_->wait_for_first_verdicts(first_round)) {
    logger_.warn("pool.first_check_incomplete", {{"waited_ms", std::to_string(first_round.count())}});
  }
  return {};
}

void PoolService::stop() { monitor_->stop(); }

base::Status PoolService::reload(const config::Config& next) {
  std::lock_guard lock(apply_mutex_);
  auto all = merged(config_pools(next), api_specs_);
  if (!all) return all.error();
  auto applied = apply(*all);
  if (applied) config_specs_ = config_pools(next);
  return applied;
}

base::Status PoolService::set_api_pools(std::vector<PoolSpec> specs) {
  std::lock_guard lock(apply_mutex_);
  if (!started_) {
    api_specs_ = std::move(specs);
    return {};
  }
  auto all = merged(config_specs_, specs);
  if (!all) return all.error();
  auto applied = apply(*all);
  if (applied) api_specs_ = std::move(specs);
  return applied;
}

base::Status PoolService::check_api_pools(const std::vector<PoolSpec>& specs) const {
  std::lock_guard lock(apply_mutex_);
  auto all = merged(config_specs_, specs);
  if (!all) return all.error();
  return check_against_zones(*all);
}

bool PoolService::is_config_pool(const std::string& pool) const {
  std::lock_guard lock(apply_mutex_);
  return std::any_of(config_specs_.begin(), config_specs_.end(), [&](const auto& spec) { return spec.name == pool; });
}

std::optional<PoolSpec> PoolService::find_pool(const std::string& pool) const {
  std::lock_guard lock(builder_mutex_);
  for (const auto& spec : builder_->specs()) {
    if (spec.name == pool) return spec;
  }
  return std::nullopt;
}

// Config pools keep their place; a clash is refused, never resolved silently (docs/pools.md).
base::Result<std::vector<PoolSpec>> PoolService::merged(const std::vector<PoolSpec>& config_pools,
                                                              const std::vector<PoolSpec>& api_pools) const {
  std::vector<PoolSpec> all = config_pools;
  for (const auto& spec : api_pools) {
    for (const auto& other : all) {
      if (other.name == spec.name) {
        return base::make_error(base::ErrorCode::kInvalidArgument,
                                fmt::format("pools.{}: pool {} is in the config file and was also made through the "
                                            "API; delete one of them",
                                            spec.name, spec.name));
      }
      if (other.owner == spec.owner && !answered_apart(other, spec)) {
        return base::make_error(base::ErrorCode::kInvalidArgument, fmt::format("pools.{}.name: {} already belongs to pool {}",
                                                                        spec.name, spec.owner.to_text(), other.name));
      }
    }
    all.push_back(spec);
  }
  return all;
}

base::Status PoolService::apply(const std::vector<PoolSpec>& specs) {
  auto checked = check_against_zones(specs);
  if (!checked) return checked;
  {
    auto builder = std::make_unique<AnswerBuilder>(policies_, specs);
    std::lock_guard lock(builder_mutex_);
    builder->adopt_state_from(*builder_);
    builder_ = std::move(builder);
  }
  if (sink_) sink_->configure(specs);
  // Publishes a first snapshot through on_health before any probe has run.
  return monitor_->configure(monitored_endpoints(specs));
}

base::Status PoolService::check_against_zones(const std::vector<PoolSpec>& specs) const {
  return check_pool_placement(specs, server_.zones().get(), sink_ != nullptr);
}

void PoolService::on_health(const std::shared_ptr<const health::HealthSnapshot>& snapshot) {
  std::vector<AllDownEvent> events;
  std::shared_ptr<const PoolAnswers> answers;
  std::shared_ptr<const PoolAnswers> per_query;
  {
    std::lock_guard lock(builder_mutex_);
    answers = builder_->build(*snapshot, events);
    per_query = sink_ ? per_query_only(answers, builder_->specs()) : answers;
  }
  // A materialized pool is answered from its zone records, on the primary as on the
  // secondaries, so the engine must not see it as a pool.
  server_.publish_dynamic(per_query->dynamic());
  answers_.store(answers);
  if (per_query != answers) sink_->submit(answers);
  for (const auto& event : events) {
    const PoolAnswer* pool = nullptr;
    for (const auto& candidate : answers->pools()) {
      if (candidate.pool == event.pool) pool = &candidate;
    }
    std::string negative = "-";
    if (event.policy == AllDownPolicy::kNoData && pool != nullptr) {
      auto ttl = negative_ttl(pool->owner);
      if (ttl) negative = std::to_string(*ttl);
    }
    if (event.moved) {
      // A steered region whose own endpoints stopped (or resumed) serving its clients.
      logger_.log(event.served_from == event.region ? base::LogLevel::kInfo : base::LogLevel::kWarn,
                  "pool.region_served_from", {{"pool", event.pool},
                                              {"type", dns::type_to_text(event.type)},
                                              {"region", event.region},
                                              {"from", event.served_from.empty() ? "whole-pool" : event.served_from}});
      continue;
    }
    if (event.panic) {
      // Entering panic is a warning: most endpoints are down and the rest get their share only.
      base::LogLevel level = event.all_down ? base::LogLevel::kWarn : base::LogLevel::kInfo;
      const char* name = event.all_down ? "pool.panic" : "pool.panic_over";
      if (event.region.empty()) {
        logger_.log(level, name,
                    {{"pool", event.pool},
                     {"type", dns::type_to_text(event.type)},
                     {"up", std::to_string(event.up)},
                     {"min_healthy", std::to_string(event.threshold)}});
      } else {  // a steered pool panics per region
        logger_.log(level, name,
                    {{"pool", event.pool},
                     {"type", dns::type_to_text(event.type)},
                     {"up", std::to_string(event.up)},
                     {"min_healthy", std::to_string(event.threshold)},
                     {"region", event.region}});
      }
      continue;
    }
    if (event.all_down) {
      logger_.warn("pool.all_down", {{"pool", event.pool},
                                     {"type", dns::type_to_text(event.type)},
                                     {"policy", all_down_to_text(event.policy)},
                                     {"nodata_negative_ttl", negative}});
    } else {
      logger_.info("pool.recovered", {{"pool", event.pool}, {"type", dns::type_to_text(event.type)}});
    }
  }
}

std::optional<std::uint32_t> PoolService::negative_ttl(const dns::Name& name) const {
  auto zones = server_.zones();
  const zone::Zone* zone = zones ? zones->find(name) : nullptr;
  if (zone == nullptr) return std::nullopt;
  return zone->negative_ttl();
}

pool::StatusInput PoolService::status_input(const std::vector<PoolSpec>& specs,
                                            const std::vector<health::EndpointReport>& reports,
                                            const PoolAnswers* answers) const {
  StatusInput input;
  input.specs = &specs;
  input.reports = &reports;
  input.answers = answers;
  input.negative_ttl = [this](const dns::Name& name) { return negative_ttl(name); };
  input.clock = &clock_;
  input.lab = &lab_run_;
  return input;
}

std::string PoolService::status_json() const {
  std::vector<PoolSpec> specs;
  {
    std::lock_guard lock(builder_mutex_);
    specs = builder_->specs();
  }
  auto reports = monitor_->reports();
  auto answers = answers_.load();
  StatusInput input = status_input(specs, reports, answers.get());
  for (const auto& [key, section] : status_sections_) input.sections.emplace_back(key, section());
  return render_status_json(input);
}

std::string PoolService::probe_ticks_json(std::uint64_t after, std::uint64_t& next) const {
  return render_probe_ticks_json(monitor_->probes_after(after, next));
}

std::string PoolService::metrics_text() const {
  auto reports = monitor_->reports();
  auto answers = answers_.load();
  std::vector<PoolSpec> none;
  RcodeCounts rcodes{};
  for (std::size_t i = 0; i < rcodes.size(); ++i) rcodes[i] = rcodes_[i].load(std::memory_order_relaxed);
  std::string out = render_metrics(status_input(none, reports, answers.get()), rcodes);
  for (const auto& source : metrics_sources_) out += source();
  return out;
}

base::Status PoolService::set_override(const std::string& pool, const std::string& address, health::Override value,
                                       const std::string& who) {
  if (!materializes(pool)) return monitor_->set_override(pool, address, value);
  std::lock_guard lock(override_mutex_);
  // The override's write must reach the journal before the reply, like any write; earlier
  // health changes are written first so the history entry is the override's own.
  if (!sink_->flush(kOverrideWriteWait)) logger_.warn("pool.materialize_slow", {{"pool", pool}});
  const char* action = value == health::Override::kNone ? "undrain" : health::override_to_text(value);
  sink_->annotate(pool, who, fmt::format("{} {}", action, address));
  auto done = monitor_->set_override(pool, address, value);
  if (done && !sink_->flush(kOverrideWriteWait)) logger_.warn("pool.materialize_slow", {{"pool", pool}});
  sink_->clear_annotation(pool);  // else a later health change would carry the operator's name
  return done;
}

bool PoolService::materializes(const std::string& pool) const {
  if (!sink_) return false;
  std::lock_guard lock(builder_mutex_);
  return is_materialized(builder_->specs(), pool);
}

}  // namespace cutover::pool
