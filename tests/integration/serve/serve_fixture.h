// Shared pieces of the serve integration tests: a small zone whose answer for
// www.<origin> A and SOA serial are chosen by the test, and config file writing.
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "support/process.h"
#include "support/server.h"

namespace cutover::testing {

inline std::string small_zone(const std::string& origin, std::uint32_t serial, const std::string& www_address) {
  return fmt::format(
      "$ORIGIN {0}\n"
      "$TTL 300\n"
      "@    IN SOA ns1.{0} hostmaster.{0} {1} 3600 600 86400 60\n"
      "@    IN NS  ns1\n"
      "ns1  IN A   192.0.2.53\n"
      "www  IN A   {2}\n",
      origin, serial, www_address);
}

// A temp dir holding zone.db (serial 1, www -> 192.0.2.1) for origin serve.test.
struct ZoneDir {
  std::string dir = make_temp_dir("cutover-serve");
  std::string zone_path = dir + "/zone.db";
  std::string config_path = dir + "/cutover.yaml";

  ZoneDir() { write_zone(1, "192.0.2.1"); }
  void write_zone(std::uint32_t serial, const std::string& address) const {
    write_file(zone_path, small_zone("serve.test.", serial, address));
  }
  // A config serving zone.db by its relative path, plus `extra` top-level YAML.
  void write_config(const std::string& extra = "") const {
    write_file(config_path, extra + "zones:\n  - origin: serve.test.\n    file: zone.db\n");
  }
};

// Serves zone.db through --zone.
inline ServerSpec zone_spec(const ZoneDir& zone) {
  ServerSpec spec;
  spec.zones = {{"serve.test.", zone.zone_path}};
  return spec;
}

// Serves through --config (write_config first); the config names the zones, so the
// readiness probe is told which one to ask for.
inline ServerSpec config_spec(const ZoneDir& zone) {
  ServerSpec spec;
  spec.config = zone.config_path;
  spec.probe_name = "serve.test.";
  return spec;
}

}  // namespace cutover::testing
