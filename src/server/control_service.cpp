// ControlService: starts the control listener and logs where it is.
#include "server/control_service.h"

namespace cutover::server {

namespace {

control::ControlOptions options_from(const config::ControlConfig& config) {
  control::ControlOptions options;
  options.address = config.host;
  options.port = config.port;
  options.bearer_token = config.token;
  // control.token guards write actions; reading (/status, the console) is open on the host.
  options.open_loopback_reads = true;
  options.remote_writes = config.remote_writes;
  return options;
}

}  // namespace

ControlService::ControlService(const config::ControlConfig& config, base::Logger& logger)
    : http_(options_from(config)), logger_(logger), host_(config.host) {}

base::Status ControlService::start() {
  auto started = http_.start();
  if (!started) return started;
  logger_.info("control.listen", {{"address", host_ + ":" + std::to_string(http_.port())}});
  return {};
}

}  // namespace cutover::server
