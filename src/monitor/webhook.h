// WebhookSender: posts alert payloads (JSON) to the configured webhook from its own thread,
// in order, retrying a failed post with exponential backoff up to the configured number of
// retries, and counting every outcome (WebhookStats). A webhook that is down never blocks
// the monitor's rounds. Thread-safe.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "monitor/metrics.h"
#include "monitor/monitor_config.h"

namespace cutover::monitor {

class WebhookSender {
 public:
  static constexpr std::size_t kMaxQueued = 256;

  explicit WebhookSender(WebhookConfig config);
  // Stops at once: a payload still waiting for its next retry is abandoned (and counted).
  ~WebhookSender();
  WebhookSender(const WebhookSender&) = delete;
  WebhookSender& operator=(const WebhookSender&) = delete;

  // Queues one payload; when kMaxQueued are waiting the oldest is dropped (counted).
  void post(std::string json_body);
  // Waits until the queue is empty and nothing is in flight, or `limit` passes. True when empty.
  bool flush(std::chrono::milliseconds limit);
  WebhookStats stats() const;

 private:
  void run();
  bool attempt(const std::string& body);

  WebhookConfig config_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::string> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  WebhookStats stats_;
  std::thread thread_;
};

}  // namespace cutover::monitor
