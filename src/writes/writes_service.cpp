// Wiring: journal + store, zone load handler, API routes, NOTIFY, transfer responder.
#include "writes/writes_service.h"

#include "writes/api_routes.h"

namespace cutover::writes {
namespace {

bool has_replication(const config::Config& config) {
  for (const auto& zone : config.zones) {
    const auto& r = zone.replication;
    if (!r.notify.empty() || !r.allow_transfer.empty() || !r.allow_update.empty() || r.primary) return true;
  }
  return !config.writes.journal.empty();
}

}  // namespace

std::shared_ptr<WritesService> WritesService::install(server::Server& server, server::ControlService* control,
                                                      const config::Config& config, base::Logger& logger) {
  std::shared_ptr<WritesService> service(new WritesService(server, logger));
  if (!has_replication(config)) return nullptr;
  std::map<std::string, config::ZoneReplicationConfig> settings;
  std::map<std::string, std::vector<net::SocketAddress>> targets;
  for (const auto& zone : config.zones) {
    std::string key = store::zone_key(zone.origin);
    const auto& r = zone.replication;
    // Read by the schema, refused here until implemented, so no one relies on them silently.
    if (!r.transfer_key.empty() || !r.allow_update.empty() || r.primary || !r.primary_key.empty()) {
      throw config::ConfigError("zone " + key +
                                ": transfer-key, allow-update, primary and primary-key are not supported yet");
    }
    settings[key] = zone.replication;
    if (!zone.replication.notify.empty()) targets[key] = zone.replication.notify;
  }
  service->notifier_ = std::make_unique<xfr::Notifier>(std::move(targets), logger);
  if (!config.writes.journal.empty()) {
    auto journal = store::Journal::open(config.writes.journal);
    if (!journal) throw config::ConfigError("writes.journal: " + journal.error().message);
    service->store_ = std::make_unique<store::Store>(
        std::move(*journal), [&server](auto zones) { server.publish(std::move(zones)); }, logger);
    xfr::Notifier* notifier = service->notifier_.get();
    service->store_->add_listener([notifier](const dns::Name& zone, std::uint32_t serial) { notifier->changed(zone, serial); });
    server.set_zone_load_handler([raw = service.get()](const config::Config& next, auto loaded, bool initial) {
      return raw->take_zones(next, std::move(loaded), initial);
    });
    if (control != nullptr) add_api_routes(control->http(), *service->store_);
  }
  service->responder_ = std::make_unique<xfr::Responder>([&server] { return server.zones(); }, service->store_.get(),
                                                         std::move(settings), logger);
  server.set_request_handler([raw = service->responder_.get()](auto query, auto transport, const auto& client,
                                                               auto& responses) {
    return raw->handle(query, transport, client, responses);
  });
  return service;
}

base::Status WritesService::take_zones(const config::Config& config, std::shared_ptr<const auth::ZoneSet> loaded,
                                       bool initial) {
  std::vector<store::ZoneSource> sources;
  for (const auto& zone : loaded->zones()) {
    store::ZoneSource source{zone, {}, ""};
    for (const auto& zone_config : config.zones) {
      if (zone_config.origin == zone->origin()) {
        source.order = zone_config.order;
        if (!zone_config.text) source.file = zone_config.file;
      }
    }
    sources.push_back(std::move(source));
  }
  return initial ? store_->load(sources) : store_->reload(sources);
}

base::Status WritesService::start() {
  notifier_->start();
  // Secondaries learn the (possibly replayed) serial at once, as after a primary restart.
  for (const auto& zone : server_.zones()->zones()) notifier_->changed(zone->origin(), zone->soa_fields().serial);
  return {};
}

void WritesService::stop() { notifier_->stop(); }

}  // namespace cutover::writes
