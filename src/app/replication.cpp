// Wiring: journal + store, zone load handler, API routes, NOTIFY, transfer responder, DNS UPDATE.
#include "app/replication.h"

#include <algorithm>
#include <stdexcept>

#include "net/address.h"
#include "store/api/api_routes.h"
#include "tsig/key.h"
#include "update/handler.h"
#include "update/update_message.h"

namespace cutover::app {
namespace {

bool has_replication(const config::Config& config) {
  for (const auto& zone : config.zones) {
    const auto& r = zone.replication;
    if (!r.notify.empty() || !r.allow_transfer.empty() || !r.allow_update.empty() || r.primary) return true;
  }
  return !config.writes.journal.empty();
}

// A key a zone names (allow-update, transfer-key, primary-key). The config reader checked
// that each is one of writes.tsig-keys (config::check_zone_keys), so a miss is a bug.
dns::Name key_name(const tsig::KeyRing& keys, const std::string& name) {
  auto parsed = dns::Name::from_text(name);
  if (!parsed || keys.find(*parsed) == nullptr) {
    throw std::logic_error("TSIG key " + name + " was not checked by the config reader");
  }
  return *parsed;
}

std::vector<replication::SecondaryZone> secondary_zones_of(const config::Config& config, const tsig::KeyRing& keys) {
  std::vector<replication::SecondaryZone> zones;
  for (const auto& zone : config.zones) {
    const auto& r = zone.replication;
    if (!r.primary) continue;
    replication::SecondaryZone secondary;
    secondary.origin = zone.origin;
    secondary.primary = *r.primary;
    secondary.starts_empty = zone.text.has_value();
    if (r.max_transfer_bytes != 0) secondary.max_transfer_bytes = r.max_transfer_bytes;
    if (!r.primary_key.empty()) secondary.key = *keys.find(key_name(keys, r.primary_key));
    zones.push_back(std::move(secondary));
  }
  return zones;
}

// Zones with `forward-updates: true`: their UPDATEs go to the primary (RFC 2136 §6).
std::vector<replication::ForwardedZone> forwarded_zones_of(const config::Config& config) {
  std::vector<replication::ForwardedZone> zones;
  for (const auto& zone : config.zones) {
    const auto& r = zone.replication;
    if (r.primary && r.forward_updates) zones.push_back({zone.origin, *r.primary});
  }
  return zones;
}

// An UPDATE for a forwarded zone is relayed (blocking this listener thread for at most
// replication::kForwardTimeout); any other is the local handler's, as without forwarding.
server::Intercept answer_update(const update::UpdateHandler& handler, const replication::UpdateForwarder* forwarder,
                                std::span<const std::uint8_t> query, net::Transport transport,
                                const sockaddr_storage& client, std::vector<std::vector<std::uint8_t>>& responses) {
  const replication::ForwardedZone* forwarded = forwarder != nullptr ? forwarder->zone_of(query) : nullptr;
  auto response = forwarded != nullptr ? forwarder->forward(query, transport, *forwarded, net::format_address(client))
                                       : handler.handle(query, net::format_address(client));
  if (response.empty()) return server::Intercept::kDrop;
  responses.push_back(std::move(response));
  return server::Intercept::kRespond;
}

// The store's sources for `zones` as loaded: each with its config's answer order and, when
// read from a file, the file `journal compact` writes.
std::vector<store::ZoneSource> zone_sources(const auth::ZoneSet& zones, const std::vector<config::ZoneConfig>& configs) {
  std::vector<store::ZoneSource> sources;
  for (const auto& zone : zones.zones()) {
    store::ZoneSource source{zone, {}, ""};
    for (const auto& zone_config : configs) {
      if (zone_config.origin == zone->origin()) {
        source.order = zone_config.order;
        if (!zone_config.text) source.file = zone_config.file;
      }
    }
    sources.push_back(std::move(source));
  }
  return sources;
}

}  // namespace

tsig::KeyRing key_ring(const config::Config& config) {
  std::vector<tsig::Key> keys;
  for (const auto& key : config.writes.keys) {
    keys.push_back(tsig::Key{key.name, tsig::algorithm_from_name(key.algorithm).value(), key.secret});
  }
  return tsig::KeyRing(std::move(keys));
}

bool Replication::writes_through_store(const config::Config& config) {
  if (!config.writes.journal.empty()) return true;
  return std::any_of(config.zones.begin(), config.zones.end(), [](const auto& zone) { return zone.replication.primary.has_value(); });
}

std::shared_ptr<Replication> Replication::install(server::Server& server, server::ControlService* control,
                                                  const config::Config& config, base::Logger& logger) {
  std::shared_ptr<Replication> service(new Replication(server, logger));
  if (!has_replication(config)) return nullptr;
  std::map<std::string, config::ZoneReplicationConfig> settings;
  std::map<std::string, replication::NotifyTargets> targets;
  tsig::KeyRing keys = key_ring(config);
  std::map<std::string, std::vector<update::UpdateKey>> allow_update;
  for (const auto& zone : config.zones) {
    std::string key = store::zone_key(zone.origin);
    const auto& r = zone.replication;
    std::optional<tsig::Key> transfer_key;
    if (!r.transfer_key.empty()) transfer_key = *keys.find(key_name(keys, r.transfer_key));
    for (const auto& policy : r.allow_update) {
      allow_update[key].push_back(update::UpdateKey{key_name(keys, policy.key), policy.allow_empty});
    }
    settings[key] = zone.replication;
    if (!r.notify.empty()) targets[key] = replication::NotifyTargets{r.notify, transfer_key};
  }
  // A view's own zones (docs/steering.md, "Writes to a view's zones"): keyed apart from the
  // top-level zone of the same origin; NOTIFY signed with the view's first key, which its
  // secondaries transfer the view's copy with.
  for (const auto& view : config.views) {
    std::optional<tsig::Key> view_key;
    if (!view.match_keys.empty()) view_key = *keys.find(view.match_keys.front());
    for (const auto& zone : view.zones) {
      std::string key = store::view_zone_key(zone.origin, view.name);
      settings[key] = zone.replication;
      if (!zone.replication.notify.empty()) targets[key] = replication::NotifyTargets{zone.replication.notify, view_key};
    }
  }
  service->notifier_ = std::make_unique<replication::Notifier>(std::move(targets), logger);
  auto secondary_zones = secondary_zones_of(config, keys);
  // Secondary zones are written through the store even without a journal; their transfers
  // then live in an in-memory journal, and a restart transfers the zone again.
  std::string journal_path = config.writes.journal.empty() && writes_through_store(config) ? ":memory:" : config.writes.journal;
  if (!journal_path.empty()) {
    auto journal = store::Journal::open(journal_path);
    if (!journal) throw config::ConfigError("writes.journal: " + journal.error().message);
    if (!config.writes.journal.empty()) service->journal_storage_ = (*journal)->storage();
    service->store_ = std::make_unique<store::Store>(
        std::move(*journal), [&server](auto zones) { server.publish(std::move(zones)); }, logger);
    replication::Notifier* notifier = service->notifier_.get();
    service->store_->add_listener([notifier](const dns::Name& zone, std::uint32_t serial) { notifier->changed(zone, serial); });
    server.set_zone_load_handler([raw = service.get()](const config::Config& next, auto loaded, const auto& views,
                                                       bool initial) {
      return raw->take_zones(next, std::move(loaded), views, initial);
    });
    if (control != nullptr && !config.writes.journal.empty()) {
      store::SecondaryZoneKeys secondaries;
      for (const auto& zone : secondary_zones) secondaries.insert(store::zone_key(zone.origin));
      store::add_api_routes(control->http(), *service->store_, std::move(secondaries),
                            [raw = service.get()](const std::string& view) { return raw->view_store(view); });
    }
    service->pool_materializer_ = std::make_shared<pool::PoolMaterializer>(*service->store_, service->clock_, logger);
  }
  service->responder_ = std::make_unique<replication::Responder>(
      [&server] { return server.zones(); }, service->store_.get(), std::move(settings), logger);
  service->responder_->set_tsig_keys(keys);
  service->responder_->set_view_stores([raw = service.get()](const std::string& view) { return raw->view_store(view); });
  // UPDATE needs the journal: without it there is no durable write to acknowledge (REFUSED).
  auto updates = std::make_shared<update::UpdateHandler>(
      config.writes.journal.empty() ? nullptr : service->store_.get(), keys, std::move(allow_update), logger);
  for (const auto& view : config.views) {
    update::UpdateHandler::ViewRoute route;
    route.view = view.name;
    route.keys = view.match_keys;
    route.store = [raw = service.get(), name = view.name] { return raw->view_store(name); };
    for (const auto& zone : view.zones) {
      for (const auto& policy : zone.replication.allow_update) {
        route.allow_update[store::zone_key(zone.origin)].push_back(
            update::UpdateKey{key_name(keys, policy.key), policy.allow_empty});
      }
    }
    if (!route.keys.empty()) updates->add_view(std::move(route));
  }
  if (auto forwarded = forwarded_zones_of(config); !forwarded.empty()) {
    // Half the listener threads at most wait for a primary (one with `threads: 1`), so a
    // silent primary leaves the other half answering queries.
    service->forwarder_ = std::make_unique<replication::UpdateForwarder>(
        std::move(forwarded), logger, replication::kForwardTimeout, std::max<std::size_t>(1, config.threads / 2));
  }
  if (!secondary_zones.empty()) {
    service->secondary_ = std::make_unique<replication::Secondary>(std::move(secondary_zones), *service->store_, logger);
    service->responder_->set_notify_listener([raw = service->secondary_.get()](const dns::Name& zone) { raw->notified(zone); });
  }
  server.add_request_handler([raw = service->responder_.get(), secondary = service->secondary_.get(), updates,
                              forwarder = service->forwarder_.get()](auto query, auto transport, const auto& client,
                                                                     auto& responses) {
    if (update::is_update_request(query)) return answer_update(*updates, forwarder, query, transport, client, responses);
    if (secondary != nullptr) {
      std::vector<std::uint8_t> servfail;
      if (secondary->unusable().answer(query, servfail)) {
        responses.push_back(std::move(servfail));
        return server::Intercept::kRespond;
      }
    }
    return raw->handle(query, transport, client, responses);
  });
  return service;
}

base::Status Replication::take_zones(const config::Config& config, std::shared_ptr<const auth::ZoneSet> loaded,
                                     const std::vector<server::LoadedView>& views, bool initial) {
  std::vector<store::ZoneSource> sources = zone_sources(*loaded, config.zones);
  // A secondary's zone file is only its first copy: reloads never edit transferred data.
  if (secondary_) {
    for (auto& source : sources) source.zone = secondary_->first_copy(source.zone);
  }
  auto taken = initial ? store_->load(sources) : store_->reload(sources);
  if (!taken) return taken;
  return take_view_zones(views);
}

store::Store* Replication::view_store(const std::string& view) const {
  std::lock_guard lock(view_stores_mutex_);
  auto found = view_stores_.find(view);
  return found == view_stores_.end() ? nullptr : found->second.get();
}

base::Status Replication::take_view_zones(const std::vector<server::LoadedView>& views) {
  if (!journal_storage_) return {};  // no journal: the views serve their files as loaded
  for (const auto& view : views) {
    std::vector<store::ZoneSource> sources = zone_sources(*view.zones, view.config.zones);
    store::Store* existing = view_store(view.config.name);
    if (existing != nullptr) {
      if (auto reloaded = existing->reload(sources); !reloaded) {
        return base::make_error(reloaded.error().code, "view " + view.config.name + ": " + reloaded.error().message);
      }
      continue;
    }
    auto created = std::make_unique<store::Store>(
        std::make_unique<store::Journal>(journal_storage_),
        [&server = server_, name = view.config.name](auto zones) { server.publish_view(name, std::move(zones)); },
        logger_, view.config.name);
    created->add_listener([notifier = notifier_.get(), name = view.config.name](const dns::Name& zone, std::uint32_t serial) {
      notifier->changed(store::view_zone_key(zone, name), zone, serial);
    });
    if (auto loaded = created->load(sources); !loaded) {
      return base::make_error(loaded.error().code, "view " + view.config.name + ": " + loaded.error().message);
    }
    std::lock_guard lock(view_stores_mutex_);
    view_stores_.emplace(view.config.name, std::move(created));
  }
  return {};
}

base::Status Replication::start() {
  notifier_->start();
  if (secondary_) secondary_->start();
  if (pool_materializer_) pool_materializer_->start();
  // Secondaries learn the (possibly replayed) serial at once, as after a primary restart.
  for (const auto& zone : server_.zones()->zones()) notifier_->changed(zone->origin(), zone->soa_fields().serial);
  std::lock_guard lock(view_stores_mutex_);
  for (const auto& [name, store] : view_stores_) {
    for (const auto& zone : store->zone_names()) {
      if (auto view = store->view(zone)) notifier_->changed(store::view_zone_key(zone, name), zone, view->serial);
    }
  }
  return {};
}

void Replication::stop() {
  if (secondary_) secondary_->stop();
  if (pool_materializer_) pool_materializer_->stop();
  notifier_->stop();
}

}  // namespace cutover::app
