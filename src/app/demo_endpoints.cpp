// DemoEndpoints: GET /health answers "ok", GET / names the endpoint.
#include "app/demo_endpoints.h"

namespace cutover::app {

DemoEndpoints::DemoEndpoints(base::Logger& logger, control::ControlServer* control) : logger_(logger) {
  if (control == nullptr) return;
  control->post(R"(/demo/endpoints/([^/]+)/(stop|start))",
                [this](const httplib::Request& request, httplib::Response& response) {
                  std::string address = request.matches[1];
                  bool stop = request.matches[2] == "stop";
                  bool done = stop ? stop_one(address) : start_one(address);
                  control::reply_json(response, done ? 200 : 409,
                                      done ? R"({"ok":true})" "\n" : R"({"error":"no such demo endpoint, or already in that state"})" "\n");
                });
}

DemoEndpoints::~DemoEndpoints() { stop(); }

base::Status DemoEndpoints::start() {
  start_one(kDemoPrimary);
  start_one(kDemoSecondary);
  return {};
}

void DemoEndpoints::stop() {
  stop_one(kDemoPrimary);
  stop_one(kDemoSecondary);
}

bool DemoEndpoints::start_one(const std::string& address) {
  if (address != kDemoPrimary && address != kDemoSecondary) return false;
  std::lock_guard lock(mutex_);
  if (running_.count(address) != 0) return false;
  auto http = std::make_unique<httplib::Server>();
  http->Get("/health", [](const httplib::Request&, httplib::Response& response) {
    response.set_content("ok\n", "text/plain");
  });
  http->Get("/", [address](const httplib::Request&, httplib::Response& response) {
    response.set_content("hello from demo endpoint " + address + "\n", "text/plain");
  });
  auto thread = std::make_unique<control::HttpThread>(*http);
  if (!thread->bind(address, kDemoPort)) {
    logger_.warn("demo.endpoint_unavailable", {{"address", address + ":" + std::to_string(kDemoPort)}});
    return false;
  }
  thread->start();
  Listener listener{std::move(http), std::move(thread)};
  running_.emplace(address, std::move(listener));
  logger_.info("demo.endpoint_started", {{"address", address + ":" + std::to_string(kDemoPort)}});
  return true;
}

bool DemoEndpoints::stop_one(const std::string& address) {
  Listener listener;
  {
    std::lock_guard lock(mutex_);
    auto it = running_.find(address);
    if (it == running_.end()) return false;
    listener = std::move(it->second);
    running_.erase(it);
  }
  listener.thread->stop();
  logger_.info("demo.endpoint_stopped", {{"address", address + ":" + std::to_string(kDemoPort)}});
  return true;
}

}  // namespace cutover::app
