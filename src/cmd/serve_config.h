// The configuration `cutover serve` runs with: the config file (or the embedded default)
// with the command-line overrides applied. Re-evaluated on every reload, so the overrides
// keep winning. Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "config/config.h"

namespace cutover::cmd {

struct ServeOptions {
  std::string config;                // --config FILE
  std::vector<std::string> listen;   // --listen ADDR:PORT, replaces the config's list
  std::vector<std::string> zones;    // --zone ORIGIN=FILE, added to the config's zones
  std::size_t threads = 0;           // --threads N; 0 keeps the config's value
  std::string log_level;             // --log-level; empty keeps the config's value
  bool query_log = false;            // --query-log; turns query logging on
  std::string control;               // --control ADDR:PORT, the HTTP control API
};

// True when neither a config file nor a zone is given: the built-in example is served.
bool serves_embedded_default(const ServeOptions& options);

// Throws config::ConfigError for a bad config file or a bad command-line value.
config::Config resolve_serve_config(const ServeOptions& options);

}  // namespace cutover::cmd
