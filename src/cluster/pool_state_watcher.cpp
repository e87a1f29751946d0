// PoolStateWatcher: range the marks, sync each pool, watch; range again after every break.
#include "cluster/pool_state_watcher.h"

#include "cluster/etcd_journal.h"

namespace cutover::cluster {
namespace {

constexpr std::chrono::milliseconds kEtcdTimeout{1000};
// A quiet watch is reopened after this long (after a full read): the JSON gateway has no
// keepalive that would tell a quiet stream from a dead member.
constexpr std::chrono::milliseconds kWatchIdle{2000};
constexpr std::chrono::milliseconds kRetryPause{500};
constexpr std::string_view kPoolStream = "pool ";

}  // namespace

PoolStateWatcher::PoolStateWatcher(ClusterConfig config, pool::PoolWrites& writes, base::Logger& logger)
    : config_(std::move(config)), writes_(writes), logger_(logger), etcd_(config_.etcd, kEtcdTimeout) {}

PoolStateWatcher::~PoolStateWatcher() { stop(); }

base::Status PoolStateWatcher::start() {
  thread_ = std::thread([this] { loop(); });
  return {};
}

void PoolStateWatcher::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

bool PoolStateWatcher::pause(std::chrono::milliseconds how_long) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, how_long, [this] { return stopping_; });
}

bool PoolStateWatcher::apply(const std::string& key, std::int64_t revision) {
  std::string stream = stream_of_mark_key(config_.prefix, key);
  if (!stream.starts_with(kPoolStream)) return true;
  const std::string pool = stream.substr(kPoolStream.size());
  if (auto synced = writes_.sync(pool); !synced) {
    logger_.warn("cluster.pool_sync_failed", {{"pool", pool}, {"error", synced.error().message}});
    return false;
  }
  std::int64_t seen = applied_.load();
  while (revision > seen && !applied_.compare_exchange_weak(seen, revision)) {
  }
  return true;
}

void PoolStateWatcher::loop() {
  const std::string marks = journal_prefix(config_.prefix) + "marks/";
  auto stopping = [this] {
    std::lock_guard lock(mutex_);
    return stopping_;
  };
  bool warned = false;
  while (!stopping()) {
    auto range = etcd_.range_prefix(marks);
    if (!range) {
      if (!warned) logger_.warn("cluster.pool_state_unreachable", {{"error", range.error().message}});
      warned = true;
      reachable_ = false;
      if (!pause(kRetryPause)) return;
      continue;
    }
    if (warned) logger_.info("cluster.pool_state_back", {{"etcd", etcd_.current_member()}});
    warned = false;
    reachable_ = true;
    bool all = true;
    for (const auto& kv : range->kvs) all = apply(kv.key, range->revision) && all;
    std::int64_t seen = applied_.load();
    while (all && range->revision > seen && !applied_.compare_exchange_weak(seen, range->revision)) {
    }
    auto watched = etcd_.watch_prefix(
        marks, range->revision + 1,
        [this](const std::vector<WatchEvent>& events, std::int64_t revision) {
          for (const auto& event : events) {
            if (!event.deleted) apply(event.kv.key, revision);
          }
        },
        stopping, kWatchIdle);
    if (!watched && !pause(kRetryPause)) return;
  }
}

}  // namespace cutover::cluster
