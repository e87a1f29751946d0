// Materialize mode's mapping: endpoint health -> the records written into the zone, for
// every answer mode, settledness, and equality of unchanged answer sets.
#include "pool/materialized.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "pool/answer_builder.h"

namespace cutover::pool {
namespace {

constexpr const char* kPrimary = "192.0.2.30";
constexpr const char* kBackup = "198.51.100.30";
constexpr const char* kFallback = "192.0.2.99";
constexpr const char* kV6 = "2001:db8::30";

using States = std::vector<std::pair<std::string, health::HealthState>>;

PoolSpec failover_pool(AllDownPolicy policy, bool with_v6) {
  PoolSpec spec;
  spec.name = "web";
  spec.owner = *dns::Name::from_text("web.example.test.");
  spec.ttl = 30;
  spec.serve = ServeMode::kMaterialize;
  spec.when_all_down = policy;
  spec.fallback = {kFallback};
  spec.endpoints = {{kPrimary, 80, 1, 1, {}, {}, {}, {}, {}}, {kBackup, 80, 2, 1, {}, {}, {}, {}, {}}};
  if (with_v6) spec.endpoints.push_back({kV6, 80, 1, 1, {}, {}, {}, {}, {}});
  return spec;
}

health::HealthSnapshot snapshot_of(const States& states) {
  health::HealthSnapshot snapshot;
  for (const auto& [address, state] : states) {
    snapshot.endpoints.push_back({"web", address, state, state != health::HealthState::kDown, {}, false});
  }
  std::sort(snapshot.endpoints.begin(), snapshot.endpoints.end(),
            [](const auto& x, const auto& y) { return x.address < y.address; });
  return snapshot;
}

std::vector<dns::Rdata> rdatas(std::vector<std::string> addresses) {
  std::vector<dns::Rdata> out;
  for (const auto& address : addresses) out.push_back(*address_rdata(address));
  std::sort(out.begin(), out.end());
  return out;
}

class MaterializedTest : public ::testing::Test {
 protected:
  MaterializedTest() { register_builtin_policies(registry_); }

  PoolAnswer answer(const PoolSpec& spec, const States& states) {
    AnswerBuilder builder(registry_, {spec});
    std::vector<AllDownEvent> events;
    return builder.build(snapshot_of(states), events)->pools().front();
  }

  PolicyRegistry registry_;
};

constexpr auto kUp = health::HealthState::kUp;
constexpr auto kDown = health::HealthState::kDown;
constexpr auto kUnknown = health::HealthState::kUnknown;

TEST_F(MaterializedTest, EveryAnswerModeBecomesRecords) {
  struct Case {
    const char* what;
    AllDownPolicy policy;
    States states;
    std::vector<std::string> a;
    bool marker;
    bool emptied_by_policy;
    const char* summary;
  };
  const std::vector<Case> cases{
      {"primary healthy", AllDownPolicy::kFailOpen, {{kPrimary, kUp}, {kBackup, kUp}}, {kPrimary}, false, false,
       "A 192.0.2.30 (healthy)"},
      {"failover to the backup", AllDownPolicy::kFailOpen, {{kPrimary, kDown}, {kBackup, kUp}}, {kBackup}, false,
       false, "A 198.51.100.30 (healthy)"},
      {"all down, fail-open", AllDownPolicy::kFailOpen, {{kPrimary, kDown}, {kBackup, kDown}}, {kPrimary, kBackup},
       false, false, "A 192.0.2.30 198.51.100.30 (fail-open)"},
      {"all down, fallback", AllDownPolicy::kFallback, {{kPrimary, kDown}, {kBackup, kDown}}, {kFallback}, false,
       false, "A 192.0.2.99 (fallback)"},
      {"all down, nodata", AllDownPolicy::kNoData, {{kPrimary, kDown}, {kBackup, kDown}}, {}, true, true,
       "A none (nodata)"},
  };
  for (const auto& test : cases) {
    SCOPED_TRACE(test.what);
    MaterializedRecords records = materialized_records(answer(failover_pool(test.policy, false), test.states));
    EXPECT_EQ(records.owner, *dns::Name::from_text("web.example.test."));
    EXPECT_EQ(records.ttl, 30u);
    EXPECT_EQ(records.a, rdatas(test.a));
    EXPECT_TRUE(records.aaaa.empty());
    EXPECT_EQ(records.marker.has_value(), test.marker);
    EXPECT_EQ(records.emptied_by_policy, test.emptied_by_policy);
    EXPECT_EQ(records.summary, test.summary);
  }
}

TEST_F(MaterializedTest, NoDataForOneFamilyKeepsTheOtherAndNeedsNoMarker) {
  auto spec = failover_pool(AllDownPolicy::kNoData, true);
  MaterializedRecords records = materialized_records(answer(spec, {{kPrimary, kDown}, {kBackup, kDown}, {kV6, kUp}}));
  EXPECT_TRUE(records.a.empty());
  EXPECT_EQ(records.aaaa, rdatas({kV6}));
  EXPECT_FALSE(records.marker.has_value());  // the name still exists through its AAAA
  EXPECT_TRUE(records.emptied_by_policy);
  EXPECT_EQ(records.summary, "A none (nodata); AAAA 2001:db8::30 (healthy)");
}

TEST_F(MaterializedTest, TheMarkerIsOneTxtCharacterStringNamingThePool) {
  MaterializedRecords records = materialized_records(
      answer(failover_pool(AllDownPolicy::kNoData, false), {{kPrimary, kDown}, {kBackup, kDown}}));
  ASSERT_TRUE(records.marker.has_value());
  std::string text(records.marker->begin() + 1, records.marker->end());
  EXPECT_EQ(records.marker->front(), text.size());
  EXPECT_NE(text.find("cutover pool web"), std::string::npos);
}

TEST_F(MaterializedTest, SameAnswerSetIsUnchangedWhateverTheHealthDetail) {
  auto spec = failover_pool(AllDownPolicy::kFailOpen, false);
  spec.shape = "all-healthy";
  MaterializedRecords both = materialized_records(answer(spec, {{kPrimary, kUp}, {kBackup, kUp}}));
  MaterializedRecords unknown_backup = materialized_records(answer(spec, {{kPrimary, kUp}, {kBackup, kUnknown}}));
  MaterializedRecords fail_open = materialized_records(answer(spec, {{kPrimary, kDown}, {kBackup, kDown}}));
  EXPECT_TRUE(both.same_records(unknown_backup));  // unknown still serves
  EXPECT_TRUE(both.same_records(fail_open));       // same addresses, another mode: no write
  EXPECT_NE(both.summary, fail_open.summary);
  MaterializedRecords one = materialized_records(answer(spec, {{kPrimary, kUp}, {kBackup, kDown}}));
  EXPECT_FALSE(both.same_records(one));
  spec.ttl = 31;
  EXPECT_FALSE(both.same_records(materialized_records(answer(spec, {{kPrimary, kUp}, {kBackup, kUp}}))));
}

TEST_F(MaterializedTest, SettledOnlyOnceEveryEndpointHasAVerdict) {
  auto spec = failover_pool(AllDownPolicy::kFailOpen, false);
  EXPECT_FALSE(answer(spec, {}).settled);
  EXPECT_FALSE(answer(spec, {{kPrimary, kUp}, {kBackup, kUnknown}}).settled);
  EXPECT_FALSE(answer(spec, {{kPrimary, kUp}}).settled);
  EXPECT_TRUE(answer(spec, {{kPrimary, kUp}, {kBackup, kDown}}).settled);
}

}  // namespace
}  // namespace cutover::pool
