// The placement rules of pools (pool_placement.h), one case per rule, table-driven.
#include "pool/pool_placement.h"

#include <gtest/gtest.h>

#include "auth/test_support.h"
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

}  // namespace
}  // namespace cutover::pool
