// The config keys of `cutover serve --config`: one declarative table giving each key's place,
// type, default and one-line meaning. The reader (config.cpp) takes its allowed-key lists from
// it, and cutover.yaml(5) is generated from it, so the two cannot drift. Immutable; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cutover::config {

struct KeySpec {
  // The key's place: "tcp.idle-timeout"; "[]" marks an item of a list ("zones[].origin").
  std::string_view path;
  std::string_view type;           // as the man page prints it: "duration", "bool", "ADDRESS:PORT list" ...
  std::string_view default_value;  // "" when the key has no default (unset means off or required)
  std::string_view meaning;        // one line
  std::string_view example;        // a valid YAML value for the key, used by the tests and the example
  bool section = false;            // read by a registered section (config/section.h), not by src/config
};

// Every key of the config the reader accepts, parents before their children, in the order
// the man page lists them. `pools` is read by src/pool (config/section.h); only its top key is here.
const std::vector<KeySpec>& config_keys();

// The names of the keys directly below `parent` ("" for the top level, "zones[]" for a zone
// entry), in table order: the allowed keys of that mapping.
std::vector<std::string> child_keys(std::string_view parent);

}  // namespace cutover::config
