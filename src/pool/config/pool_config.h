// The `pools:` section of the config: health-checked names, their endpoints and checks.
// Read strictly, like the rest of the config; internal to src/config. Stateless.
#pragma once

#include <optional>
#include <string>

#include <yaml-cpp/yaml.h>

#include "config/config.h"
#include "config/yaml_reader.h"

namespace cutover::config {

// Reads `pools:` into config.pools; every pool must lie inside one of config.zones.
// Throws ConfigError with the offending path (e.g. pools.app.endpoints[1].address).
void read_pools(const YamlReader& reader, const YAML::Node& node, const std::string& path, Config& config);
// One pool sent through the API: `text` holds its settings (JSON, or YAML) read exactly like
// `pools.ID` of a config file, so errors name the field ("LABEL:1:30: pools.ID.ttl: ...").
// `config` supplies the zones and journal the checks need. Throws ConfigError.
pool::PoolSpec read_pool(const std::string& id, const std::string& text, const std::string& label, const Config& config);
// Why a pool read by read_pool may not be made through the API: one of its checks is of
// a type that only the config file may set (exec runs commands), named like read_pool's
// errors ("LABEL: pools.ID.endpoints[0].check.type: ..."). nullopt when it may.
std::optional<std::string> api_refusal(const pool::PoolSpec& spec, const std::string& label);

}  // namespace cutover::config
