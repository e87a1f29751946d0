// ControlService: runs the shared HTTP control API (control::ControlServer) as a server
// Service, so modules register their routes on it before the server starts.
// Route registration is not thread-safe; do it before Server::run().
#pragma once

#include <memory>
#include <string>

#include "base/log.h"
#include "config/config.h"
#include "control/control_server.h"
#include "server/server.h"

namespace cutover::server {

class ControlService : public Service {
 public:
  // `logger` must outlive the service.
  ControlService(const config::ControlConfig& config, base::Logger& logger);

  control::ControlServer& http() { return http_; }
  std::string name() const override { return "control"; }
  base::Status start() override;
  void stop() override { http_.stop(); }

 private:
  control::ControlServer http_;
  base::Logger& logger_;
  std::string host_;
};

}  // namespace cutover::server
