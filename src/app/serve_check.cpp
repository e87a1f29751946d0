// The start-up checks of `cutover serve` that need no socket, run without serving.
#include "app/serve_check.h"

#include "app/replication.h"
#include "pool/config/pool_config.h"
#include "pool/pool_placement.h"

namespace cutover::app {

ServeCheck check_serve(const config::Config& config, ServeFeatures features) {
  ServeCheck check;
  if (features.lab && config.control.host.empty()) check.problems.push_back(kLabNeedsControl);
  server::ZoneSetLoad load = server::load_zones(config.zones);
  check.zones = std::move(load.loaded);
  check.diagnostics = std::move(load.diagnostics);
  // The views' zones too: a pool may be answered in a view only (docs/steering.md, "Views").
  std::vector<server::LoadedView> views;
  for (const auto& view : config.views) {
    server::ZoneSetLoad view_load = server::load_zones(view.zones, false);
    check.zones.insert(check.zones.end(), view_load.loaded.begin(), view_load.loaded.end());
    check.diagnostics.insert(check.diagnostics.end(), view_load.diagnostics.begin(), view_load.diagnostics.end());
    if (!view_load.zones) load.zones.reset();
    if (view_load.zones) views.push_back({view, std::move(view_load.zones)});
  }
  if (!load.zones) {
    for (const auto& diagnostic : check.diagnostics) {
      if (diagnostic.severity == zone::Severity::kError) check.problems.push_back(diagnostic.to_string());
    }
    if (check.problems.empty()) check.problems.push_back("a zone did not load");
    return check;
  }
  auto served = server::attach_views(*load.zones, views);
  auto placed = pool::check_pool_placement(pool::config_pools(config), served.get(),
                                           Replication::writes_through_store(config));
  if (!placed) check.problems.push_back(placed.error().message);
  return check;
}

}  // namespace cutover::app
