// Loads each zone with its answer-order policy and builds the ZoneSet only if all loaded.
#include "server/zone_loading.h"

#include <algorithm>
#include <ctime>

#include "auth/online_signing.h"
#include "auth/views.h"
#include "dnssec/signing_key.h"
#include "zone/loader.h"

namespace cutover::server {
namespace {

// A zone signed online (docs/dnssec.md, "Online signing"): its keys read from zones[].dnssec.keys,
// and the records that publish them (DNSKEY, CDS, CDNSKEY) added to the zone as loaded, so
// every path that serves or transfers the zone has them. Errors name the key file.
base::Result<std::shared_ptr<const auth::OnlineSigner>> prepare_online(const config::ZoneConfig& config,
                                                                        std::shared_ptr<const zone::Zone>& zone) {
  if (zone::is_signed(*zone)) {
    return base::make_error(base::ErrorCode::kInvalidArgument,
                            config.file + ": dnssec mode online, but the zone holds DNSKEY and RRSIG records (it is "
                                          "signed offline): serve an unsigned file, or drop mode online");
  }
  auto keys = dnssec::load_zone_keys(config.dnssec.keys, config.origin);
  if (!keys) return keys.error();
  std::int64_t now = std::time(nullptr);
  bool active = std::any_of(keys->begin(), keys->end(),
                            [&](const auto& key) { return key->state(now) == dnssec::KeyState::kActive && !key->revoked(); });
  if (!active) {
    return base::make_error(base::ErrorCode::kInvalidArgument,
                            config.dnssec.keys + ": no key of " + config.origin.to_text() +
                                " is active now (see the Activate and Inactive times in its .private files)");
  }
  auth::OnlinePolicy policy;
  policy.signature_lifetime = static_cast<std::uint32_t>(config.dnssec.signature_lifetime.count());
  policy.refresh = static_cast<std::uint32_t>(config.dnssec.refresh.count());
  policy.publish_cds = config.dnssec.publish_cds;
  auto signer = std::make_shared<const auth::OnlineSigner>(config.origin, std::move(*keys), policy, now);
  auto records = zone->records();
  auto key_records = signer->key_records(zone->soa().ttl);
  if (key_records.empty()) {
    return base::make_error(base::ErrorCode::kInvalidArgument,
                            config.dnssec.keys + ": no key of " + config.origin.to_text() +
                                " is published now (see the Publish, Activate and Delete times in its .private files)");
  }
  records.insert(records.end(), key_records.begin(), key_records.end());
  auto rebuilt = zone::Zone::build(config.origin, std::move(records), config.order);
  if (!rebuilt) return rebuilt.error();
  zone = std::move(*rebuilt);
  return signer;
}

}  // namespace

ZoneSetLoad load_zones(const std::vector<config::ZoneConfig>& zones, bool own_signers) {
  ZoneSetLoad result;
  std::vector<std::shared_ptr<const zone::Zone>> built;
  std::vector<std::pair<dns::Name, std::shared_ptr<const auth::OnlineSigner>>> signers;
  for (const auto& config : zones) {
    zone::ZoneLoad load = config.text ? zone::load_zone_text(config.origin, *config.text, config.file, config.order)
                                      : zone::load_zone_file(config.origin, config.file, config.order);
    result.diagnostics.insert(result.diagnostics.end(), load.diagnostics.begin(), load.diagnostics.end());
    if (!load.zone) {
      // The loader explains itself; this only guards against a failure without a word.
      if (!zone::has_errors(load.diagnostics)) {
        result.diagnostics.push_back({zone::Severity::kError, {config.file}, "zone did not load"});
      }
      continue;
    }
    std::shared_ptr<const auth::OnlineSigner> signer;
    if (config.dnssec.online) {
      auto prepared = prepare_online(config, load.zone);
      if (!prepared) {
        result.diagnostics.push_back({zone::Severity::kError, {config.file}, prepared.error().message});
        continue;
      }
      signer = std::move(*prepared);
    }
    signers.emplace_back(config.origin, std::move(signer));
    result.loaded.push_back(
        {config.origin, config.file, load.zone->soa_fields().serial, load.zone->record_count(), load.zone});
    built.push_back(std::move(load.zone));
  }
  if (built.size() != zones.size()) return result;
  // Registered before the set is built: ZoneSet attaches each zone's signer as it prepares it.
  if (own_signers) {
    for (auto& [origin, signer] : signers) auth::set_online_signer(origin, std::move(signer));
  }
  result.zones = std::make_shared<const auth::ZoneSet>(std::move(built));
  return result;
}

std::shared_ptr<const auth::ViewTable> view_table(const std::vector<LoadedView>& views) {
  if (views.empty()) return nullptr;
  std::vector<auth::View> table;
  for (const auto& loaded : views) {
    auth::View view;
    view.name = loaded.config.name;
    view.clients = loaded.config.match_clients;
    view.keys = loaded.config.match_keys;
    view.ecs = loaded.config.ecs;
    view.zones = loaded.zones;  // replaced by each publication's overlay
    table.push_back(std::move(view));
  }
  return std::make_shared<const auth::ViewTable>(std::move(table));
}

std::shared_ptr<const auth::ZoneSet> attach_views(const auth::ZoneSet& zones, const std::vector<LoadedView>& views,
                                                  const auth::ViewTable* table) {
  if (views.empty()) return auth::ZoneSet::with_views(zones, nullptr);
  std::shared_ptr<const auth::ViewTable> built;
  if (table == nullptr) {
    built = view_table(views);
    table = built.get();
  }
  std::vector<std::shared_ptr<const auth::ZoneSet>> sets;
  for (const auto& loaded : views) sets.push_back(auth::ZoneSet::overlay(*loaded.zones, zones));
  return auth::ZoneSet::with_views(zones, std::make_shared<const auth::ViewTable>(*table, std::move(sets)));
}

}  // namespace cutover::server
