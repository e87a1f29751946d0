// VerdictPublisher: latest verdict per key -> etcd, one lease for all of them.
#include "cluster/verdict_publisher.h"

#include <algorithm>

#include "pool/config/pool_config.h"
#include "pool/status_report.h"

namespace cutover::cluster {
namespace {

// How long the publisher waits after a failed round before it tries etcd again.
constexpr std::chrono::milliseconds kRetryPause{500};
constexpr std::chrono::milliseconds kEtcdTimeout{1000};

}  // namespace

LocalVerdicts::LocalVerdicts(CheckerOptions options, std::chrono::seconds lease_ttl, health::HealthMonitor& monitor,
                             base::Logger& logger)
    : publisher_(std::move(options), lease_ttl, logger) {
  monitor.set_verdict_observer([this](const health::VantageVerdict& verdict) { publisher_.on_verdict(verdict); });
}

base::Status LocalVerdicts::start() {
  publisher_.start();
  return {};
}

std::chrono::seconds lease_ttl_for(const config::Config& config) {
  std::chrono::milliseconds longest{0};
  for (const auto& spec : pool::config_pools(config)) {
    for (const auto& endpoint : spec.endpoints) {
      for (const auto& check : pool::all_checks(endpoint)) longest = std::max(longest, check.interval);
    }
  }
  auto ttl = std::chrono::duration_cast<std::chrono::seconds>(longest * 3 + std::chrono::milliseconds(999));
  return std::max(ttl, std::chrono::seconds(2));
}

VerdictPublisher::VerdictPublisher(CheckerOptions options, std::chrono::seconds lease_ttl, base::Logger& logger)
    : options_(std::move(options)), lease_ttl_(lease_ttl), logger_(logger), etcd_(options_.members, kEtcdTimeout) {}

VerdictPublisher::~VerdictPublisher() { stop(); }

void VerdictPublisher::start() {
  thread_ = std::thread([this] { loop(); });
}

void VerdictPublisher::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    wake_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

std::uint64_t VerdictPublisher::published() const {
  std::lock_guard lock(mutex_);
  return published_;
}

nlohmann::json VerdictPublisher::status_json() const {
  nlohmann::json members = nlohmann::json::array();
  for (const auto& member : options_.members) members.push_back(member.url());
  std::lock_guard lock(mutex_);
  nlohmann::json verdicts = nlohmann::json::array();
  for (const auto& [key, value] : latest_) {
    auto verdict = nlohmann::json::parse(value, nullptr, false);
    if (verdict.is_discarded()) continue;
    verdict["published"] = dirty_.count(key) == 0;
    verdicts.push_back(std::move(verdict));
  }
  return {{"vantage", options_.vantage},
          {"prefix", options_.prefix},
          {"lease_ttl_s", lease_ttl_.count()},
          {"lease", lease_ == 0 ? nlohmann::json(nullptr) : nlohmann::json(std::to_string(lease_))},
          {"published", published_},
          {"etcd",
           {{"endpoints", members},
            {"member", etcd_.current_member()},
            {"reached", reached_},
            {"last_reached", last_reached_ ? nlohmann::json(pool::format_utc(*last_reached_)) : nlohmann::json(nullptr)},
            {"last_error", last_error_}}},
          {"verdicts", verdicts}};
}

void VerdictPublisher::on_verdict(const health::VantageVerdict& verdict) {
  std::string key = verdict_key(options_.prefix, verdict.pool, verdict.address, options_.vantage);
  std::string value = verdict_to_json(verdict_of(verdict, options_.vantage));
  std::lock_guard lock(mutex_);
  latest_[key] = std::move(value);
  dirty_[key] = true;
  wake_.notify_all();
}

void VerdictPublisher::loop() {
  std::int64_t lease = 0;
  bool reachable = true;
  auto renew_every = std::max<std::chrono::milliseconds>(lease_ttl_ / 3, std::chrono::milliseconds(500));
  auto last_renewal = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    wake_.wait_for(lock, renew_every, [this] { return stopping_ || !dirty_.empty(); });
    if (stopping_) return;
    std::vector<std::pair<std::string, std::string>> batch;
    for (const auto& [key, flag] : dirty_) batch.emplace_back(key, latest_[key]);
    dirty_.clear();
    lock.unlock();

    std::string failure;
    bool lease_lost = false;
    if (lease != 0 && std::chrono::steady_clock::now() - last_renewal >= renew_every) {
      auto renewed = etcd_.keepalive(lease);
      if (renewed) {
        last_renewal = std::chrono::steady_clock::now();
      } else if (renewed.error().code == base::ErrorCode::kNotFound) {
        lease_lost = true;
      } else {
        failure = renewed.error().message;
      }
    }
    if (lease_lost) lease = 0;
    if (failure.empty() && lease == 0) {
      auto granted = etcd_.grant(lease_ttl_);
      if (granted) {
        lease = *granted;
        last_renewal = std::chrono::steady_clock::now();
        lease_lost = true;  // every key must be written again under the new lease
      } else {
        failure = granted.error().message;
      }
    }
    std::size_t written = 0;
    if (failure.empty()) {
      if (lease_lost) {
        std::lock_guard relock(mutex_);
        batch.clear();
        for (const auto& [key, value] : latest_) batch.emplace_back(key, value);
      }
      for (const auto& [key, value] : batch) {
        auto put = etcd_.put(key, value, lease);
        if (!put) {
          if (put.error().code == base::ErrorCode::kNotFound) lease = 0;
          failure = put.error().message;
          break;
        }
        ++written;
      }
    }

    lock.lock();
    published_ += written;
    lease_ = lease;
    reached_ = failure.empty();
    if (!failure.empty()) {
      last_error_ = failure;
      // Whatever was not written goes again with the next round (the latest value by then).
      for (std::size_t i = written; i < batch.size(); ++i) dirty_[batch[i].first] = true;
      if (reachable) logger_.warn("checker.etcd_unreachable", {{"vantage", options_.vantage}, {"error", failure}});
      reachable = false;
      wake_.wait_for(lock, kRetryPause, [this] { return stopping_; });
      continue;
    }
    last_reached_ = std::chrono::system_clock::now();
    if (!reachable) {
      logger_.info("checker.etcd_back", {{"vantage", options_.vantage}, {"etcd", etcd_.current_member()}});
    }
    reachable = true;
  }
}

}  // namespace cutover::cluster
