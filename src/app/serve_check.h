// What `cutover serve --check` finds wrong with a config before anything is bound: the
// checks `cutover serve` runs at start that need no socket, through the same code (zone
// loading, the pool placement rules, the services' own refusals). It binds nothing, starts no
// service and opens no journal. Stateless; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "app/serve.h"
#include "config/config.h"
#include "server/zone_loading.h"

namespace cutover::app {

struct ServeCheck {
  std::vector<server::LoadedZone> zones;     // the zones that loaded
  std::vector<zone::Diagnostic> diagnostics;  // every zone's warnings and errors, in order
  std::vector<std::string> problems;          // each reason `cutover serve` would refuse to start
  bool ok() const { return problems.empty(); }
};

// `config` is read already (the reader's own errors are its ConfigError).
ServeCheck check_serve(const config::Config& config, ServeFeatures features);

}  // namespace cutover::app
