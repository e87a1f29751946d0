// Config sections: top-level config keys owned by a feature module above config (`pools:`
// is src/pool's). The module registers its section once at startup, before any config is
// read; every config read afterwards accepts the key and calls the section's reader, after
// the built-in keys, so a section can check itself against the zones. The result is kept
// type-erased in Config::sections under the key. register_section is thread-safe.
#pragma once

#include <any>
#include <functional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace cutover::config {

struct Config;
class YamlReader;

struct Section {
  std::string key;  // the top-level key, e.g. "pools"
  // Reads the key's value `node` found at `path`; `config` holds every built-in key and the
  // sections read before this one. Throws ConfigError (through reader.fail, with the place).
  std::function<std::any(const YamlReader& reader, const YAML::Node& node, const std::string& path,
                         const Config& config)>
      read;
};

// Adds `section` to every config read from now on; a second registration of the same key
// replaces the first (so registering twice is harmless).
void register_section(Section section);
// The registered sections, in registration order.
std::vector<Section> registered_sections();

}  // namespace cutover::config
