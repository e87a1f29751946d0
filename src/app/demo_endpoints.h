// DemoEndpoints: the two tiny HTTP servers behind the embedded default's pool
// app.example.test, so a new user can watch failover without any setup. Each can be
// stopped and started through the control API (POST /demo/endpoints/ADDR/stop|start).
// Thread-safe: API threads may stop/start while the server runs.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>

#include "base/log.h"
#include "control/control_server.h"
#include "server/server.h"

namespace cutover::app {

// The demo endpoints' addresses and port, also named in the embedded config.
constexpr const char* kDemoPrimary = "127.0.0.11";
constexpr const char* kDemoSecondary = "127.0.0.12";
constexpr std::uint16_t kDemoPort = 5380;

class DemoEndpoints : public server::Service {
 public:
  // `logger` must outlive the service; `control` (may be null) must not have started yet.
  DemoEndpoints(base::Logger& logger, control::ControlServer* control);
  ~DemoEndpoints() override;

  std::string name() const override { return "demo-endpoints"; }
  // A demo address already taken (another demo running) is logged, not fatal.
  base::Status start() override;
  void stop() override;

  bool start_one(const std::string& address);
  bool stop_one(const std::string& address);

 private:
  struct Listener {
    std::unique_ptr<httplib::Server> http;
    std::unique_ptr<control::HttpThread> thread;
  };

  base::Logger& logger_;
  std::mutex mutex_;
  std::map<std::string, Listener> running_;
};

}  // namespace cutover::app
