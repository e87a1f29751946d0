// libFuzzer target: the server configuration (YAML, docs/ and config/config.h) read from
// text. A bad config must be refused with ConfigError (file:line:col: key: message); any other
// exception escaping parse_config, or a crash, is a bug. Relative paths are anchored in a
// directory that does not exist, and parsing reads no files.
#include <cstdint>
#include <string>

#include "config/config.h"
#include "pool/config/pool_config.h"

// The pools section is read by src/pool, registered here as cmd's main does.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  cutover::pool::register_config_section();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string yaml(reinterpret_cast<const char*>(data), size);
  try {
    auto config = cutover::config::parse_config(yaml, "fuzz.yaml", "/nonexistent/cutover-fuzz");
    (void)config;
  } catch (const cutover::config::ConfigError&) {
  }
  return 0;
}
