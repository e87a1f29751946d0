// The text of the configuration and zone compiled into the binary (default_config.cpp), for
// the generated example /etc/cutover/cutover.yaml (config/docs.h). Constant; thread-safe.
#pragma once

#include <string_view>

namespace cutover::config {

// The YAML of embedded_default_config() without the feature keys cmd appends.
std::string_view embedded_config_yaml();
// The master file of its zone example.test. (the YAML names it example.test.zone).
std::string_view embedded_zone_text();

}  // namespace cutover::config
