// The `pools:` section of the config (config/section.h): health-checked names, their
// endpoints and checks, read strictly like the rest of the config, and the same reading
// for one pool sent through the API. Stateless apart from the section registration.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "pool/pool_spec.h"

namespace cutover::pool {

// Registers `pools:` with the config reader; call before reading any config (cmd's main
// does). Each pool must lie inside one of the config's zones; errors name the place
// (FILE:LINE:COL: pools.app.endpoints[1].address: ...). Harmless to call again.
void register_config_section();
// The pools of a config read with the section registered; empty when it sets none.
const std::vector<PoolSpec>& config_pools(const config::Config& config);
// Replaces the pools of `config` (an empty list removes them).
void set_config_pools(config::Config& config, std::vector<PoolSpec> pools);

// One pool sent through the API: `text` holds its settings (JSON, or YAML) read exactly like
// `pools.ID` of a config file, so errors name the field ("LABEL:1:30: pools.ID.ttl: ...").
// `config` supplies the zones and journal the checks need. Throws config::ConfigError.
PoolSpec read_pool(const std::string& id, const std::string& text, const std::string& label,
                   const config::Config& config);
// Why a pool read by read_pool may not be made through the API: one of its checks is of
// a type that only the config file may set (exec runs commands), named like read_pool's
// errors ("LABEL: pools.ID.endpoints[0].check.type: ..."). nullopt when it may.
std::optional<std::string> api_refusal(const PoolSpec& spec, const std::string& label);

}  // namespace cutover::pool
