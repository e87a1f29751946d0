// Tests for loading the configured zones all or nothing, including the embedded default.
#include "server/zone_loading.h"

#include <gtest/gtest.h>

namespace cutover::server {
namespace {

using config::embedded_default_config;
using config::ZoneConfig;

ZoneConfig inline_zone(const char* origin, const char* text) {
  ZoneConfig zone;
  zone.origin = *dns::Name::from_text(origin);
  zone.file = std::string(origin) + "zone";
  zone.text = text;
  return zone;
}

constexpr const char* kGoodZone =
    "$TTL 300\n@ IN SOA ns.good.test. admin.good.test. 7 3600 600 86400 60\n@ IN NS ns\nns IN A 192.0.2.1\n";

TEST(LoadZones, EmbeddedDefaultLoadsWithoutErrors) {
  ZoneSetLoad load = load_zones(embedded_default_config().zones);
  for (const auto& diagnostic : load.diagnostics) ADD_FAILURE() << diagnostic.to_string();
  ASSERT_TRUE(load.zones);
  ASSERT_EQ(load.loaded.size(), 1u);
  EXPECT_EQ(load.loaded[0].serial, 2024010101u);
  EXPECT_GT(load.loaded[0].records, 20u);
  EXPECT_NE(load.zones->find(*dns::Name::from_text("www.example.test.")), nullptr);
}

TEST(LoadZones, OneBrokenZoneFailsTheWholeSet) {
  std::vector<ZoneConfig> zones = {inline_zone("good.test.", kGoodZone),
                                   inline_zone("bad.test.", "$TTL 300\n@ IN SOA ns.bad.test. broken\n")};
  ZoneSetLoad load = load_zones(zones);
  EXPECT_FALSE(load.zones);
  ASSERT_EQ(load.loaded.size(), 1u);
  EXPECT_EQ(load.loaded[0].serial, 7u);
  ASSERT_TRUE(zone::has_errors(load.diagnostics));
  bool located = false;
  for (const auto& diagnostic : load.diagnostics) {
    if (diagnostic.severity == zone::Severity::kError && diagnostic.location.file == "bad.test.zone" &&
        diagnostic.location.line == 2) {
      located = true;
    }
  }
  EXPECT_TRUE(located);
}

TEST(LoadZones, MissingFileIsAnError) {
  ZoneConfig zone;
  zone.origin = *dns::Name::from_text("missing.test.");
  zone.file = "/nonexistent/missing.zone";
  ZoneSetLoad load = load_zones({zone});
  EXPECT_FALSE(load.zones);
  EXPECT_TRUE(zone::has_errors(load.diagnostics));
}

}  // namespace
}  // namespace cutover::server
