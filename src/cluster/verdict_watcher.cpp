// VerdictWatcher: range, then watch, then range again after every break (a deletion missed
// while the stream was down is seen by the next full read).
#include "cluster/verdict_watcher.h"

#include <algorithm>

namespace cutover::cluster {
namespace {

constexpr std::chrono::milliseconds kEtcdTimeout{1000};
// A watch with no event for this long is reopened (after a full read); the JSON gateway has
// no keepalive of its own that would tell a quiet stream from a dead member.
constexpr std::chrono::milliseconds kWatchIdle{2000};
constexpr std::chrono::milliseconds kRetryPause{500};

}  // namespace

VerdictWatcher::VerdictWatcher(ClusterConfig config, health::HealthMonitor& monitor, base::Logger& logger)
    : config_(std::move(config)), monitor_(monitor), logger_(logger), etcd_(config_.etcd, kEtcdTimeout) {}

VerdictWatcher::~VerdictWatcher() { stop(); }

base::Status VerdictWatcher::start() {
  thread_ = std::thread([this] { loop(); });
  logger_.info("cluster.watching", {{"prefix", verdicts_prefix(config_.prefix)},
                                    {"vantage", config_.vantage},
                                    {"local_checker", config_.local_checker ? "true" : "false"},
                                    {"etcd", etcd_.current_member()}});
  return {};
}

base::Status VerdictWatcher::reload(const config::Config& next) {
  if (!same_cluster(config_, config_cluster(next))) {
    logger_.warn("reload.restart_needed",
                 {{"reason", "the cluster section changes only on restart; still using the one read at start"}});
  }
  return {};
}

void VerdictWatcher::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

WatchState VerdictWatcher::state() const {
  std::lock_guard lock(state_mutex_);
  WatchState out = state_;
  out.member = etcd_.current_member();
  return out;
}

void VerdictWatcher::reached(std::int64_t revision) {
  std::lock_guard lock(state_mutex_);
  state_.reached = true;
  state_.last_reached = std::chrono::system_clock::now();
  state_.revision = std::max(state_.revision, revision);
}

void VerdictWatcher::failed(const std::string& error) {
  std::lock_guard lock(state_mutex_);
  state_.reached = false;
  state_.last_error = error;
}

bool VerdictWatcher::pause(std::chrono::milliseconds how_long) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, how_long, [this] { return stopping_; });
}

void VerdictWatcher::apply_put(const std::string& key, const std::string& value) {
  auto verdict = parse_verdict(config_.prefix, key, value);
  if (!verdict) {
    logger_.warn("cluster.bad_verdict", {{"error", verdict.error().message}});
    return;
  }
  // This server's own probes, published for the others, already count here as `local`.
  if (config_.local_checker && verdict->vantage == config_.vantage) return;
  known_.insert({verdict->pool, verdict->endpoint, verdict->vantage});
  auto reported = monitor_.report_vantage(verdict->pool, verdict->endpoint, verdict->vantage, verdict->state, verdict->reason);
  if (!reported) logger_.debug("cluster.unknown_endpoint", {{"key", key}, {"error", reported.error().message}});
}

void VerdictWatcher::apply_delete(const std::string& key) {
  auto verdict = parse_verdict(config_.prefix, key, R"({"state": "unknown"})");
  if (!verdict) return;
  known_.erase({verdict->pool, verdict->endpoint, verdict->vantage});
  (void)monitor_.forget_vantage(verdict->pool, verdict->endpoint, verdict->vantage);
}

void VerdictWatcher::loop() {
  const std::string prefix = verdicts_prefix(config_.prefix);
  bool reachable = true;
  auto stopping = [this] {
    std::lock_guard lock(mutex_);
    return stopping_;
  };
  while (!stopping()) {
    auto range = etcd_.range_prefix(prefix);
    if (!range) {
      failed(range.error().message);
      if (reachable) logger_.warn("cluster.etcd_unreachable", {{"error", range.error().message}});
      reachable = false;
      if (!pause(kRetryPause)) return;
      continue;
    }
    if (!reachable) logger_.info("cluster.etcd_back", {{"etcd", etcd_.current_member()}});
    reachable = true;
    std::set<VerdictId> previous = std::move(known_);
    known_.clear();
    for (const auto& kv : range->kvs) apply_put(kv.key, kv.value);
    for (const auto& [pool, endpoint, vantage] : previous) {
      if (known_.count({pool, endpoint, vantage}) == 0) (void)monitor_.forget_vantage(pool, endpoint, vantage);
    }
    reached(range->revision);
    auto watched = etcd_.watch_prefix(
        prefix, range->revision + 1,
        [this](const std::vector<WatchEvent>& events, std::int64_t revision) {
          for (const auto& event : events) {
            if (event.deleted) {
              apply_delete(event.kv.key);
            } else {
              apply_put(event.kv.key, event.kv.value);
            }
          }
          reached(revision);
        },
        stopping, kWatchIdle);
    if (!watched) {
      failed(watched.error().message);
      if (!pause(kRetryPause)) return;
    }
  }
}

}  // namespace cutover::cluster
