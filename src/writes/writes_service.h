// WritesService: wires the write path and replication into a server::Server. With a
// journal configured it owns the Store (journal replay on start, reloads as writes), serves
// the write API on the control listener and notifies secondaries after every change; with
// or without one it answers AXFR/IXFR and NOTIFY through the server's request handler.
// Set up before Server::run(); the store and notifier are thread-safe.
#pragma once

#include <memory>

#include "base/log.h"
#include "config/config.h"
#include "server/control_service.h"
#include "secondary/secondary.h"
#include "server/server.h"
#include "store/store.h"
#include "pool/writes/pool_materializer.h"
#include "xfr/notifier.h"
#include "xfr/responder.h"

namespace cutover::writes {

class WritesService : public server::Service {
 public:
  // Registers everything on `server` (and on `control` when not null). Throws
  // config::ConfigError when the journal cannot be opened or a key name is unknown.
  // `server`, `control` and `logger` must outlive the service.
  static std::shared_ptr<WritesService> install(server::Server& server, server::ControlService* control,
                                                const config::Config& config, base::Logger& logger);

  std::string name() const override { return "writes"; }
  base::Status start() override;
  void stop() override;

  store::Store* store() { return store_.get(); }
  // Writes the answers of pools in materialize mode; null without a journal.
  std::shared_ptr<pool::PoolMaterializer> pool_materializer() { return pool_materializer_; }

 private:
  WritesService(server::Server& server, base::Logger& logger) : server_(server), logger_(logger) {}
  base::Status take_zones(const config::Config& config, std::shared_ptr<const auth::ZoneSet> loaded, bool initial);

  server::Server& server_;
  base::Logger& logger_;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<xfr::Notifier> notifier_;
  base::RealClock clock_;
  std::shared_ptr<pool::PoolMaterializer> pool_materializer_;
  std::unique_ptr<xfr::Responder> responder_;
  std::unique_ptr<secondary::Secondary> secondary_;  // zones with a primary; null when none
};

}  // namespace cutover::writes
