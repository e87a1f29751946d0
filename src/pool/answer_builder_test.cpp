// AnswerBuilder: health snapshot -> answers, all-down policies and their events, per
// family; select_records and the suspicion TTL.
#include "pool/answer_builder.h"

#include <gtest/gtest.h>

#include "dns/rdata.h"

namespace cutover::pool {
namespace {

PoolSpec two_endpoint_pool(const std::string& shape, AllDownPolicy policy = AllDownPolicy::kFailOpen) {
  PoolSpec spec;
  spec.name = "app";
  spec.owner = *dns::Name::from_text("app.example.test.");
  spec.shape = shape;
  spec.when_all_down = policy;
  spec.fallback = {"192.0.2.99"};
  spec.endpoints = {{"192.0.2.30", 80, 1, 1, {}}, {"198.51.100.30", 80, 2, 1, {}}, {"2001:db8::30", 80, 1, 1, {}}};
  return spec;
}

health::HealthSnapshot health_of(std::vector<std::pair<std::string, bool>> serving) {
  health::HealthSnapshot snapshot;
  for (const auto& [address, up] : serving) {
    snapshot.endpoints.push_back({"app", address, up ? health::HealthState::kUp : health::HealthState::kDown, up, {}});
  }
  std::sort(snapshot.endpoints.begin(), snapshot.endpoints.end(),
            [](const auto& a, const auto& b) { return a.address < b.address; });
  return snapshot;
}

std::vector<std::string> texts(const FamilyAnswer& family) { return family.addresses; }

class AnswerBuilderTest : public ::testing::Test {
 protected:
  AnswerBuilderTest() { register_builtin_policies(registry_); }
  PolicyRegistry registry_;
  std::vector<AllDownEvent> events_;
};

TEST_F(AnswerBuilderTest, FailoverFollowsHealthPerFamily) {
  AnswerBuilder builder(registry_, {two_endpoint_pool("failover")});
  auto answers = builder.build(health_of({{"192.0.2.30", true}, {"198.51.100.30", true}, {"2001:db8::30", true}}), events_);
  const PoolAnswer* pool = answers->find(*dns::Name::from_text("APP.example.test."));
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(texts(pool->a), std::vector<std::string>{"192.0.2.30"});
  EXPECT_EQ(texts(pool->aaaa), std::vector<std::string>{"2001:db8::30"});
  answers = builder.build(health_of({{"192.0.2.30", false}, {"198.51.100.30", true}, {"2001:db8::30", true}}), events_);
  EXPECT_EQ(texts(answers->pools().front().a), std::vector<std::string>{"198.51.100.30"});
  EXPECT_TRUE(events_.empty());
}

TEST_F(AnswerBuilderTest, AllDownPoliciesAndEvents) {
  auto down = health_of({{"192.0.2.30", false}, {"198.51.100.30", false}, {"2001:db8::30", true}});
  struct Case {
    AllDownPolicy policy;
    AnswerMode mode;
    std::vector<std::string> a;
  };
  for (const auto& test : std::vector<Case>{{AllDownPolicy::kFailOpen, AnswerMode::kFailOpen, {"192.0.2.30", "198.51.100.30"}},
                                            {AllDownPolicy::kFallback, AnswerMode::kFallback, {"192.0.2.99"}},
                                            {AllDownPolicy::kNoData, AnswerMode::kNoData, {}}}) {
    AnswerBuilder builder(registry_, {two_endpoint_pool("all-healthy", test.policy)});
    events_.clear();
    auto answers = builder.build(down, events_);
    const PoolAnswer& pool = answers->pools().front();
    EXPECT_EQ(pool.a.mode, test.mode);
    EXPECT_EQ(texts(pool.a), test.a);
    EXPECT_EQ(pool.aaaa.mode, AnswerMode::kHealthy);
    ASSERT_EQ(events_.size(), 1u);  // only the A family went down
    EXPECT_TRUE(events_[0].all_down);
    EXPECT_EQ(events_[0].type, dns::RRType::A);
    events_.clear();
    builder.build(down, events_);
    EXPECT_TRUE(events_.empty());  // no repeated entry event
    builder.build(health_of({{"192.0.2.30", true}, {"198.51.100.30", false}, {"2001:db8::30", true}}), events_);
    ASSERT_EQ(events_.size(), 1u);
    EXPECT_FALSE(events_[0].all_down);
  }
}

TEST_F(AnswerBuilderTest, UnknownEndpointsServe) {
  AnswerBuilder builder(registry_, {two_endpoint_pool("all-healthy")});
  auto answers = builder.build(health::HealthSnapshot{}, events_);
  EXPECT_EQ(answers->pools().front().a.addresses.size(), 2u);
}

TEST_F(AnswerBuilderTest, SelectRecordsUsesTheFixedRRsetOrAWeightedDraw) {
  AnswerBuilder fixed(registry_, {two_endpoint_pool("all-healthy")});
  auto answers = fixed.build(health_of({{"192.0.2.30", true}, {"198.51.100.30", true}}), events_);
  auto records = select_records(answers->pools().front(), dns::RRType::A, base::SteadyTime{});
  ASSERT_TRUE(records.ok());
  ASSERT_NE(records->fixed, nullptr);
  EXPECT_EQ(records->fixed->rdatas.size(), 2u);
  EXPECT_EQ(records->ttl, kDefaultPoolTtl);
  EXPECT_FALSE(select_records(answers->pools().front(), dns::RRType::MX, base::SteadyTime{}).ok());

  AnswerBuilder weighted(registry_, {two_endpoint_pool("weighted")});
  answers = weighted.build(health_of({{"192.0.2.30", true}, {"198.51.100.30", true}}), events_);
  records = select_records(answers->pools().front(), dns::RRType::A, base::SteadyTime{});
  ASSERT_TRUE(records.ok());
  EXPECT_EQ(records->picked.size(), 1u);
}

TEST_F(AnswerBuilderTest, SuspicionTtlCountsDownToTheDeadline) {
  PoolSpec spec = two_endpoint_pool("failover");
  spec.suspicion_ttl = true;
  AnswerBuilder builder(registry_, {spec});
  auto snapshot = health_of({{"192.0.2.30", true}, {"198.51.100.30", true}});
  base::SteadyTime now{std::chrono::seconds(1000)};
  snapshot.endpoints[0].suspicion_deadline = now + std::chrono::seconds(18);  // 192.0.2.30 sorts first
  auto answers = builder.build(snapshot, events_);
  const PoolAnswer& pool = answers->pools().front();
  EXPECT_EQ(pool.ttl_at(pool.a, now), 18u);
  EXPECT_EQ(pool.ttl_at(pool.a, now + std::chrono::milliseconds(17500)), 0u);
  EXPECT_EQ(pool.ttl_at(pool.a, now + std::chrono::seconds(30)), 0u);
  EXPECT_EQ(pool.ttl_at(pool.a, now - std::chrono::seconds(100)), kDefaultPoolTtl);
}

}  // namespace
}  // namespace cutover::pool
