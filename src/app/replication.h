// Replication: the zone write path and replication of `cutover serve`, as one server::Service.
// With a journal (or a secondary zone) it owns the Store (journal replay on start, reloads as
// writes), serves the zone write API on the control listener, writes materialized pools and
// notifies secondaries after every change (RFC 1996); with or without one it answers AXFR/IXFR
// (RFC 5936, RFC 1995), NOTIFY and DNS UPDATE (RFC 2136) through the server's request handler,
// relaying UPDATE for secondary zones with forward-updates to their primary (RFC 2136 §6).
// Set up before Server::run(); the store, notifier and materializer are thread-safe.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/log.h"
#include "config/config.h"
#include "replication/secondary/secondary.h"
#include "replication/secondary/update_forwarder.h"
#include "server/control_service.h"
#include "server/server.h"
#include "store/store.h"
#include "tsig/key.h"
#include "pool/writes/pool_materializer.h"
#include "replication/primary/notifier.h"
#include "replication/primary/responder.h"

namespace cutover::app {

// The keys of writes.tsig-keys (the config reader admits only the algorithms tsig knows), for
// replication, UPDATE and signed queries (signed_queries.h).
tsig::KeyRing key_ring(const config::Config& config);

class Replication : public server::Service {
 public:
  // Registers the zone load handler, the request handler and (when `control` is not null and
  // a journal is configured) the zone write API on `server`; null when the config sets up no
  // replication and no journal. Throws config::ConfigError when the journal cannot be opened.
  // The key names zones use were checked by the config reader (config::check_zone_keys).
  // `server`, `control` and `logger` must outlive the service.
  static std::shared_ptr<Replication> install(server::Server& server, server::ControlService* control,
                                              const config::Config& config, base::Logger& logger);

  // True when `config` makes zones go through the store (a journal, or a secondary zone with
  // an in-memory one): then materialized pools are written into their zones.
  static bool writes_through_store(const config::Config& config);

  // "writes", the config section it serves (the name in the service.started log line).
  std::string name() const override { return "writes"; }
  base::Status start() override;
  void stop() override;

  store::Store* store() { return store_.get(); }
  // The store of view `view`'s own zones (docs/steering.md, "Writes to a view's zones"); null
  // when the view has none (no journal, or no such view). Stores live as long as the service.
  store::Store* view_store(const std::string& view) const;
  // The secondary role; null when no zone has a primary.
  const replication::Secondary* secondary() const { return secondary_.get(); }
  // Writes the answers of pools in materialize mode; null without a journal.
  std::shared_ptr<pool::PoolMaterializer> pool_materializer() { return pool_materializer_; }

 private:
  Replication(server::Server& server, base::Logger& logger) : server_(server), logger_(logger) {}
  base::Status take_zones(const config::Config& config, std::shared_ptr<const auth::ZoneSet> loaded,
                          const std::vector<server::LoadedView>& views, bool initial);
  // Each view's own zones through its store, created (and its journal replayed) the first
  // time the view is seen, reloaded after.
  base::Status take_view_zones(const std::vector<server::LoadedView>& views);

  server::Server& server_;
  base::Logger& logger_;
  std::unique_ptr<store::Store> store_;
  std::shared_ptr<store::JournalStorage> journal_storage_;  // store_'s, shared by the views' stores; null without a journal
  mutable std::mutex view_stores_mutex_;
  std::map<std::string, std::unique_ptr<store::Store>> view_stores_;  // by view name; never erased
  std::unique_ptr<replication::Notifier> notifier_;
  base::RealClock clock_;
  std::shared_ptr<pool::PoolMaterializer> pool_materializer_;
  std::unique_ptr<replication::Responder> responder_;
  std::unique_ptr<replication::Secondary> secondary_;  // zones with a primary; null when none
  // Relays UPDATE for zones with forward-updates to their primary; null when none does.
  std::unique_ptr<replication::UpdateForwarder> forwarder_;
};

}  // namespace cutover::app
