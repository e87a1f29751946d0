// WebhookSender over cpp-httplib's client: one POST per attempt with the configured
// timeouts; 2xx is delivered, anything else (no connection, timeout, 4xx, 5xx) is a failed
// attempt, retried after backoff, 2 x backoff, 4 x backoff ... up to `retries` times.
#include "monitor/webhook.h"

#include <httplib.h>

namespace cutover::monitor {

WebhookSender::WebhookSender(WebhookConfig config) : config_(std::move(config)) {
  thread_ = std::thread([this] { run(); });
}

WebhookSender::~WebhookSender() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void WebhookSender::post(std::string json_body) {
  {
    std::lock_guard lock(mutex_);
    if (queue_.size() >= kMaxQueued) {
      queue_.pop_front();
      ++stats_.dropped_queue_full;
    }
    queue_.push_back(std::move(json_body));
  }
  wake_.notify_all();
}

bool WebhookSender::flush(std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  return wake_.wait_for(lock, limit, [this] { return queue_.empty() && !busy_; });
}

WebhookStats WebhookSender::stats() const {
  std::lock_guard lock(mutex_);
  WebhookStats out = stats_;
  out.queued = queue_.size();
  return out;
}

bool WebhookSender::attempt(const std::string& body) {
  httplib::Client client(config_.host, config_.port);
  auto seconds = [](std::chrono::milliseconds ms) { return std::chrono::duration_cast<std::chrono::microseconds>(ms); };
  client.set_connection_timeout(seconds(config_.timeout));
  client.set_read_timeout(seconds(config_.timeout));
  client.set_write_timeout(seconds(config_.timeout));
  auto result = client.Post(config_.path, body, "application/json");
  return result && result->status >= 200 && result->status < 300;
}

void WebhookSender::run() {
  std::unique_lock lock(mutex_);
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    std::string body = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    bool delivered = false;
    auto backoff = config_.backoff;
    for (int attempt_number = 0; attempt_number <= config_.retries && !stopping_; ++attempt_number) {
      if (attempt_number > 0) {
        // The wait ends early only when the sender is stopping.
        if (wake_.wait_for(lock, backoff, [this] { return stopping_; })) break;
        backoff *= 2;
      }
      lock.unlock();
      bool ok = attempt(body);
      lock.lock();
      if (ok) {
        delivered = true;
        break;
      }
      ++stats_.failed_attempts;
    }
    if (delivered) ++stats_.delivered;
    else ++stats_.given_up;
    busy_ = false;
    wake_.notify_all();
  }
}

}  // namespace cutover::monitor
