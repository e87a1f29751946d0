// LabAuthority: the lab mode of `cutover serve --lab`. Owns the LabModel, publishes its zones
// through the server, installs the outage/counting interceptor and registers the lab's
// HTTP/JSON routes (under /lab/) on the shared control API. Construct and attach before
// Server::run(); afterwards every handler is thread-safe.
#pragma once

#include <string>

#include "lab/authority/lab_model.h"
#include "control/control_server.h"
#include "server/server.h"

namespace cutover::lab {

class LabAuthority : public server::Service {
 public:
  // `server` and `http` must outlive this object.
  LabAuthority(server::Server& server, control::ControlServer& http);

  std::string name() const override { return "lab"; }
  base::Status start() override;
  void stop() override {}
  // Lab zones live only in memory: a SIGHUP reload republishes them over the config's zones.
  base::Status reload(const config::Config& next) override;

  LabModel& model() { return model_; }

 private:
  void register_routes(control::ControlServer& http);

  LabModel model_;
};

}  // namespace cutover::lab
