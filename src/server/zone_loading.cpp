// Loads each zone with its answer-order policy and builds the ZoneSet only if all loaded.
#include "server/zone_loading.h"

#include "auth/views.h"
#include "zone/loader.h"

namespace cutover::server {

ZoneSetLoad load_zones(const std::vector<config::ZoneConfig>& zones) {
  ZoneSetLoad result;
  std::vector<std::shared_ptr<const zone::Zone>> built;
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
    result.loaded.push_back(
        {config.origin, config.file, load.zone->soa_fields().serial, load.zone->record_count(), load.zone});
    built.push_back(std::move(load.zone));
  }
  if (built.size() == zones.size()) result.zones = std::make_shared<const auth::ZoneSet>(std::move(built));
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
