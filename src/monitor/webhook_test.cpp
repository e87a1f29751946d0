// WebhookSender against a real HTTP listener on loopback: retried until accepted, given up
// after the last retry, every attempt counted.
#include "monitor/webhook.h"

#include <httplib.h>

#include <atomic>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

namespace cutover::monitor {
namespace {

class Listener {
 public:
  // Answers 500 to the first `failures` posts, then 204.
  explicit Listener(int failures) : failures_(failures) {
    server_.Post("/hook", [this](const httplib::Request& request, httplib::Response& response) {
      std::lock_guard lock(mutex_);
      bodies_.push_back(request.body);
      response.status = static_cast<int>(bodies_.size()) <= failures_ ? 500 : 204;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~Listener() {
    server_.stop();
    thread_.join();
  }
  WebhookConfig config(int retries) const {
    WebhookConfig config;
    config.host = "127.0.0.1";
    config.port = static_cast<std::uint16_t>(port_);
    config.path = "/hook";
    config.retries = retries;
    config.backoff = std::chrono::milliseconds(10);
    return config;
  }
  std::vector<std::string> bodies() {
    std::lock_guard lock(mutex_);
    return bodies_;
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  int failures_;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::string> bodies_;
};

TEST(WebhookSender, RetriesUntilAccepted) {
  Listener listener(2);
  WebhookSender sender(listener.config(3));
  sender.post(R"({"rule":"mismatch"})");
  ASSERT_TRUE(sender.flush(std::chrono::seconds(20)));
  WebhookStats stats = sender.stats();
  EXPECT_EQ(stats.delivered, 1U);
  EXPECT_EQ(stats.failed_attempts, 2U);
  EXPECT_EQ(stats.given_up, 0U);
  EXPECT_EQ(listener.bodies(), (std::vector<std::string>(3, R"({"rule":"mismatch"})")));
}

TEST(WebhookSender, GivesUpAfterTheLastRetry) {
  Listener listener(100);
  WebhookSender sender(listener.config(1));
  sender.post("{}");
  sender.post("{}");
  ASSERT_TRUE(sender.flush(std::chrono::seconds(20)));
  WebhookStats stats = sender.stats();
  EXPECT_EQ(stats.delivered, 0U);
  EXPECT_EQ(stats.failed_attempts, 4U);
  EXPECT_EQ(stats.given_up, 2U);
  EXPECT_EQ(listener.bodies().size(), 4U);
}

TEST(WebhookSender, NoListenerIsAFailedAttemptNotACrash) {
  int port = 0;
  {
    httplib::Server probe;
    port = probe.bind_to_any_port("127.0.0.1");
  }  // closed again: nothing listens there now
  WebhookConfig config;
  config.host = "127.0.0.1";
  config.port = static_cast<std::uint16_t>(port);
  config.retries = 0;
  config.timeout = std::chrono::milliseconds(500);
  WebhookSender sender(config);
  sender.post("{}");
  ASSERT_TRUE(sender.flush(std::chrono::seconds(20)));
  EXPECT_EQ(sender.stats().given_up, 1U);
  EXPECT_EQ(sender.stats().failed_attempts, 1U);
}

}  // namespace
}  // namespace cutover::monitor
