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
  if (!load.zones) {
    for (const auto& diagnostic : check.diagnostics) {
      if (diagnostic.severity == zone::Severity::kError) check.problems.push_back(diagnostic.to_string());
    }
    if (check.problems.empty()) check.problems.push_back("a zone did not load");
    return check;
  }
  auto placed = pool::check_pool_placement(pool::config_pools(config), load.zones.get(),
                                           Replication::writes_through_store(config));
  if (!placed) check.problems.push_back(placed.error().message);
  return check;
}

}  // namespace cutover::app
