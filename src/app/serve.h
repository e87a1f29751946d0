// Serve: the one composition root of `cutover serve`. From a config it builds the
// server::Server (listeners, zones) and every service beside it, registered in this order:
// the lab authority (--lab), the embedded default's demo endpoints, the pools, the control
// API, the write path and replication (app/replication.h: journal, store, NOTIFY, AXFR/IXFR,
// secondary zones, UPDATE, materialized pools, zone write API), and the pool write path with
// its API routes; last, the web console's routes and panels (app/console_panels.h) on the
// control API. Built and run from one thread; the services it starts are thread-safe.
#pragma once

#include <signal.h>

#include <memory>

#include "base/log.h"
#include "config/config.h"
#include "control/control_server.h"
#include "pool/status_report.h"
#include "server/control_service.h"
#include "server/server.h"

namespace cutover::app {

struct ServeFeatures {
  bool lab = false;             // the lab authority and its /lab/ routes (needs the control API)
  bool demo_endpoints = false;  // the HTTP endpoints behind the embedded default's pool
  pool::LabRun lab_run;         // --lab-results: client terms beside each pool's window
};

// Why Serve refuses --lab without a control API.
inline constexpr const char* kLabNeedsControl = "--lab needs the control API (--control ADDRESS:PORT)";

class Serve {
 public:
  // `resolve` re-reads the config on reload (SIGHUP); `config` is the first one. Throws
  // config::ConfigError when a service cannot be set up (--lab without a control API, a
  // journal that does not open). `logger` must outlive this.
  Serve(server::Server::ConfigSource resolve, config::Config config, base::Logger& logger, ServeFeatures features);

  // The control API's HTTP server; null when the config has none.
  control::ControlServer* control_api() const { return control_ ? &control_->http() : nullptr; }

  // Server::run: loads the zones, starts the services in order and then the listeners, and
  // handles `signals` (blocked by the caller in every thread) until SIGTERM or SIGINT.
  int run(const sigset_t& signals, const server::Server::ReadyCallback& on_ready) {
    return server_.run(signals, on_ready);
  }

 private:
  server::Server server_;
  std::shared_ptr<server::ControlService> control_;
};

}  // namespace cutover::app
