// The placement rules of pools (pool_placement.h), one case per rule, table-driven.
#include "pool/pool_placement.h"

#include <gtest/gtest.h>

#include "auth/test_support.h"
#include "auth/views.h"
#include "pool/test_support.h"

namespace cutover::pool {
namespace {

using auth::testing::make_zone;
using testing::endpoint;
using testing::pool_spec;

auth::ZoneSet zones() {
  return auth::ZoneSet({make_zone("example.test.", {
                                                       "example.test. 300 SOA ns.example.test. h.example.test. 1 2 3 4 5",
                                                       "example.test. 300 NS ns.example.test.",
                                                       "ns.example.test. 300 A 192.0.2.53",
                                                       "www.example.test. 300 A 192.0.2.1",
                                                       "made.example.test. 300 A 192.0.2.2",
                                                       "made.example.test. 300 TXT marker",
                                                       "sub.example.test. 300 NS ns.other.test.",
                                                   })});
}

struct Case {
  const char* pool;
  const char* zone;
  ServeMode serve;
  bool materializing;
  const char* error;  // "" when placed well
};

TEST(PoolPlacement, EachRuleRefusesWithThePoolsPath) {
  const Case cases[] = {
      {"app", "example.test.", ServeMode::kPerQuery, false, ""},
      {"app", "other.test.", ServeMode::kPerQuery, false, "pools.app.name: app.other.test. is outside every served zone"},
      {"host", "sub.example.test.", ServeMode::kPerQuery, false,
       "pools.host.name: host.sub.example.test. lies at or below a delegation"},
      {"www", "example.test.", ServeMode::kPerQuery, false,
       "pools.www.name: www.example.test. also has static records in zone example.test. (a name is either a pool or "
       "zone data)"},
      // A materialized pool's own A and TXT records are its, once the write path writes them.
      {"made", "example.test.", ServeMode::kMaterialize, true, ""},
      {"made", "example.test.", ServeMode::kMaterialize, false,
       "pools.made.name: made.example.test. also has static records in zone example.test. (a name is either a pool or "
       "zone data)"},
  };
  auth::ZoneSet served = zones();
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.pool) + "." + c.zone);
    PoolSpec spec = pool_spec(c.pool, "failover", {endpoint("192.0.2.10")}, c.zone);
    spec.serve = c.serve;
    auto checked = check_pool_placement({spec}, &served, c.materializing);
    EXPECT_EQ(checked ? std::string() : checked.error().message, c.error);
  }
}

TEST(PoolPlacement, NothingServedRefusesEveryPool) {
  auto checked = check_pool_placement({pool_spec("app", "failover", {endpoint("192.0.2.10")})}, nullptr, false);
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().message, "pools.app.name: app.example.test. is outside every served zone");
}

// With views, a pool is checked in every zone set it is answered from: all of them without
// `views:`, where one at least must hold it; each listed one with it, all of which must.
TEST(PoolPlacement, EveryViewThePoolIsAnsweredInIsChecked) {
  auth::ZoneSet base = zones();
  auth::View internal;
  internal.name = "internal";
  internal.clients = {*base::parse_network_prefix("10.0.0.0/8")};
  internal.zones = auth::ZoneSet::overlay(
      auth::ZoneSet({make_zone("intra.test.", {"intra.test. 300 SOA ns.intra.test. h.intra.test. 1 2 3 4 5",
                                               "intra.test. 300 NS ns.intra.test.", "ns.intra.test. 300 A 10.0.0.53",
                                               "www.intra.test. 300 A 10.0.0.1"})}),
      base);
  auto served = auth::ZoneSet::with_views(base, std::make_shared<const auth::ViewTable>(std::vector<auth::View>{internal}));
  auto limited = [](const char* name, const char* zone, std::vector<std::string> views, std::uint16_t mask) {
    PoolSpec spec = pool_spec(name, "failover", {endpoint("192.0.2.10")}, zone);
    spec.views = std::move(views);
    spec.view_mask = mask;
    return spec;
  };
  struct ViewCase {
    PoolSpec spec;
    const char* error;
  };
  const ViewCase cases[] = {
      {limited("app", "intra.test.", {}, 0xFFFF), ""},  // in the internal view's own zone
      {limited("app", "intra.test.", {"internal"}, 2), ""},
      {limited("app", "example.test.", {"default", "internal"}, 3), ""},  // the default zone, seen in both
      {limited("app", "intra.test.", {"default"}, 1),
       "pools.app.name: app.intra.test. is outside every zone served (view default)"},
      {limited("www", "intra.test.", {"internal"}, 2),
       "pools.www.name: www.intra.test. also has static records in zone intra.test. (a name is either a pool or zone "
       "data) (view internal)"},
      {limited("app", "other.test.", {}, 0xFFFF), "pools.app.name: app.other.test. is outside every served zone"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.spec.owner.to_text());
    auto checked = check_pool_placement({c.spec}, served.get(), false);
    EXPECT_EQ(checked ? std::string() : checked.error().message, c.error);
  }
}

}  // namespace
}  // namespace cutover::pool
