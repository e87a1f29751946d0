// AnswerBuilder: health snapshot -> answers, all-down policies and their events, per
// family; select_records and the suspicion TTL.
#include "pool/answer_builder.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <set>

#include "auth/engine.h"
#include "auth/test_support.h"
#include "base/clock.h"
#include "dns/rdata.h"
#include "health/health_monitor.h"
#include "health/state_machine.h"

namespace cutover::pool {
namespace {

PoolSpec two_endpoint_pool(const std::string& shape, AllDownPolicy policy = AllDownPolicy::kFailOpen) {
  PoolSpec spec;
  spec.name = "app";
  spec.owner = *dns::Name::from_text("app.example.test.");
  spec.shape = shape;
  spec.when_all_down = policy;
  spec.fallback = {"192.0.2.99"};
  spec.endpoints = {{"192.0.2.30", 80, 1, 1, {}, {}, {}, {}, {}}, {"198.51.100.30", 80, 2, 1, {}, {}, {}, {}, {}}, {"2001:db8::30", 80, 1, 1, {}, {}, {}, {}, {}}};
  return spec;
}

health::HealthSnapshot health_of(std::vector<std::pair<std::string, bool>> serving) {
  health::HealthSnapshot snapshot;
  for (const auto& [address, up] : serving) {
    snapshot.endpoints.push_back({"app", address, up ? health::HealthState::kUp : health::HealthState::kDown, up, {}, false});
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

// docs/cluster.md: when-all-down needs a quorum that agrees; all down with a verdict held
// while the quorum is lost answers every endpoint not drained, never nodata.
TEST_F(AnswerBuilderTest, AllDownHeldByALostQuorumNeverEmptiesTheAnswer) {
  AnswerBuilder builder(registry_, {two_endpoint_pool("failover", AllDownPolicy::kNoData)});
  auto agreed = health_of({{"192.0.2.30", false}, {"198.51.100.30", false}, {"2001:db8::30", true}});
  auto answers = builder.build(agreed, events_);
  EXPECT_TRUE(texts(answers->pools().front().a).empty());  // a quorum agrees: nodata
  auto held = agreed;
  for (auto& view : held.endpoints) view.quorum_lost = true;
  answers = builder.build(held, events_);
  EXPECT_EQ(texts(answers->pools().front().a), (std::vector<std::string>{"192.0.2.30", "198.51.100.30"}));
  held.endpoints[0].drained = true;  // 192.0.2.30 sorts first
  answers = builder.build(held, events_);
  EXPECT_EQ(texts(answers->pools().front().a), std::vector<std::string>{"198.51.100.30"});
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

namespace cutover::pool {
namespace {

// The panic threshold driven through real state machines on the fake clock: four A
// endpoints with fall 2, min-healthy 50% (2 of 4). Failures land one probe interval apart.
class PanicThresholdTest : public ::testing::Test {
 protected:
  PanicThresholdTest() {
    register_builtin_policies(registry_);
    health::Thresholds thresholds;
    thresholds.fall = 2;
    thresholds.rise = 1;
    for (const char* address : {"192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"}) {
      addresses_.push_back(address);
      machines_.emplace_back(thresholds);
    }
  }

  PoolSpec spec(MinHealthy min_healthy, AllDownPolicy policy = AllDownPolicy::kFailOpen) const {
    PoolSpec out;
    out.name = "app";
    out.owner = *dns::Name::from_text("app.example.test.");
    out.shape = "failover";
    out.when_all_down = policy;
    out.min_healthy = min_healthy;
    for (std::size_t i = 0; i < addresses_.size(); ++i) {
      EndpointSpec endpoint;
      endpoint.address = addresses_[i];
      endpoint.priority = static_cast<int>(i + 1);
      out.endpoints.push_back(endpoint);
    }
    return out;
  }

  // Two failed probes, one interval apart: endpoint `i` goes down.
  void fail(std::size_t i) {
    for (int probe = 0; probe < 2; ++probe) {
      clock_.advance(std::chrono::seconds(10));
      machines_[i].report(health::kLocalChecker, health::ProbeOutcome::kFail, clock_.now());
    }
  }
  void pass(std::size_t i) {
    clock_.advance(std::chrono::seconds(10));
    machines_[i].report(health::kLocalChecker, health::ProbeOutcome::kPass, clock_.now());
  }

  health::HealthSnapshot snapshot() const {
    health::HealthSnapshot out;
    for (std::size_t i = 0; i < machines_.size(); ++i) {
      out.endpoints.push_back({"app", addresses_[i], machines_[i].effective(), machines_[i].serving(),
                               machines_[i].suspicion_deadline(),
                               machines_[i].override_value() == health::Override::kDrain});
    }
    return out;
  }

  PolicyRegistry registry_;
  base::FakeClock clock_;
  std::vector<std::string> addresses_;
  std::vector<health::EndpointStateMachine> machines_;
  std::vector<AllDownEvent> events_;
};

TEST_F(PanicThresholdTest, FewerUpThanMinHealthyAnswersEveryEndpointUntilNoneIsUp) {
  AnswerBuilder builder(registry_, {spec({50, true})});
  for (std::size_t i = 0; i < 4; ++i) pass(i);
  auto a = [&] { return builder.build(snapshot(), events_)->pools().front().a; };
  EXPECT_EQ(a().mode, AnswerMode::kHealthy);
  EXPECT_EQ(a().addresses, std::vector<std::string>{"192.0.2.1"});  // failover: the first priority
  fail(0);
  EXPECT_EQ(a().addresses, std::vector<std::string>{"192.0.2.2"});
  fail(1);  // 2 of 4 up: at the threshold, not below it
  FamilyAnswer family = a();
  EXPECT_EQ(family.mode, AnswerMode::kHealthy);
  EXPECT_EQ(family.up, 2u);
  EXPECT_TRUE(events_.empty());
  fail(2);  // 1 of 4 up: panic, every endpoint answered
  family = a();
  EXPECT_EQ(family.mode, AnswerMode::kPanic);
  EXPECT_EQ(family.addresses, (std::vector<std::string>{"192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"}));
  EXPECT_EQ(family.panics, 1u);
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_TRUE(events_[0].panic);
  EXPECT_TRUE(events_[0].all_down);  // entering
  EXPECT_EQ(events_[0].up, 1u);
  EXPECT_EQ(events_[0].threshold, 2u);
  events_.clear();
  fail(3);  // none up: when-all-down decides, and panic is over
  family = a();
  EXPECT_EQ(family.mode, AnswerMode::kFailOpen);
  ASSERT_EQ(events_.size(), 2u);
  EXPECT_TRUE(events_[0].panic);
  EXPECT_FALSE(events_[0].all_down);  // leaving panic
  EXPECT_FALSE(events_[1].panic);
  EXPECT_TRUE(events_[1].all_down);   // entering all-down
  events_.clear();
  pass(3);  // one back: panic again, counted a second time
  family = a();
  EXPECT_EQ(family.mode, AnswerMode::kPanic);
  EXPECT_EQ(family.panics, 2u);
  EXPECT_EQ(events_.size(), 2u);
  pass(2);
  family = a();
  EXPECT_EQ(family.mode, AnswerMode::kHealthy);
  EXPECT_EQ(family.addresses, std::vector<std::string>{"192.0.2.3"});
}

// A drained endpoint counts as not up and stays out of the panic answer: the operator said
// no traffic. Regression test: the panic answer once took every configured endpoint.
TEST_F(PanicThresholdTest, ADrainedEndpointStaysOutOfThePanicAnswer) {
  AnswerBuilder builder(registry_, {spec({3, false})});
  for (std::size_t i = 0; i < 4; ++i) pass(i);
  machines_[0].set_override(health::Override::kDrain, clock_.now());
  FamilyAnswer family = builder.build(snapshot(), events_)->pools().front().a;
  EXPECT_EQ(family.mode, AnswerMode::kHealthy);  // 3 up of 4: at the threshold
  EXPECT_EQ(family.addresses, std::vector<std::string>{"192.0.2.2"});
  fail(1);  // 2 up: panic
  family = builder.build(snapshot(), events_)->pools().front().a;
  EXPECT_EQ(family.mode, AnswerMode::kPanic);
  EXPECT_EQ(family.up, 2u);
  EXPECT_EQ(family.addresses, (std::vector<std::string>{"192.0.2.2", "192.0.2.3", "192.0.2.4"}));
}

TEST_F(PanicThresholdTest, NoneUpStillFollowsWhenAllDown) {
  for (AllDownPolicy policy : {AllDownPolicy::kNoData, AllDownPolicy::kFallback}) {
    PoolSpec pool = spec({3, false}, policy);
    pool.fallback = {"192.0.2.99"};
    AnswerBuilder builder(registry_, {pool});
    for (std::size_t i = 0; i < 4; ++i) fail(i);
    FamilyAnswer family = builder.build(snapshot(), events_)->pools().front().a;
    EXPECT_EQ(family.mode, policy == AllDownPolicy::kNoData ? AnswerMode::kNoData : AnswerMode::kFallback);
    for (std::size_t i = 0; i < 4; ++i) pass(i);
  }
}

TEST_F(PanicThresholdTest, ACountThresholdIsCappedAtTheFamilySizeAndOffByDefault) {
  EXPECT_EQ((MinHealthy{10, false}.threshold(4)), 4u);
  EXPECT_EQ((MinHealthy{2, false}.threshold(4)), 2u);
  EXPECT_EQ((MinHealthy{50, true}.threshold(3)), 2u);  // ceil(1.5)
  EXPECT_EQ((MinHealthy{1, true}.threshold(4)), 1u);
  EXPECT_EQ((MinHealthy{}.to_text()), "off");
  EXPECT_EQ((MinHealthy{30, true}.to_text()), "30%");
  // 10 > 4 endpoints: all four up is healthy, three up is panic.
  AnswerBuilder capped(registry_, {spec({10, false})});
  for (std::size_t i = 0; i < 4; ++i) pass(i);
  EXPECT_EQ(capped.build(snapshot(), events_)->pools().front().a.mode, AnswerMode::kHealthy);
  fail(0);
  EXPECT_EQ(capped.build(snapshot(), events_)->pools().front().a.mode, AnswerMode::kPanic);
  // Without min-healthy a single survivor takes everything (today's behaviour).
  AnswerBuilder off(registry_, {spec({})});
  fail(1);
  fail(2);
  FamilyAnswer family = off.build(snapshot(), events_)->pools().front().a;
  EXPECT_EQ(family.mode, AnswerMode::kHealthy);
  EXPECT_EQ(family.addresses, std::vector<std::string>{"192.0.2.4"});
}

}  // namespace
}  // namespace cutover::pool

// Steering by client network (docs/steering.md): each region's clients get their own region's
// endpoints, then the next region of their order with one up, then the whole pool; all down is
// decided pool-wide and reported once.
class SteeredBuilderTest : public AnswerBuilderTest {
 protected:
  static PoolSpec steered_pool(AllDownPolicy policy = AllDownPolicy::kFailOpen) {
    PoolSpec spec;
    spec.name = "app";
    spec.owner = *dns::Name::from_text("app.example.test.");
    spec.shape = "all-healthy";
    spec.when_all_down = policy;
    spec.fallback = {"192.0.2.99"};
    spec.endpoints = {{"192.0.2.1", 80, 1, 1, {}, {}, {}, "eu", {}},
                      {"192.0.2.2", 80, 1, 1, {}, {}, {}, "eu", {}},
                      {"198.51.100.1", 80, 1, 1, {}, {}, {}, "us", {}},
                      {"203.0.113.1", 80, 1, 1, {}, {}, {}, "ap", {}}};
    spec.steering.regions = {{"eu", {"eu", "us", "ap"}}, {"us", {"us", "eu"}}, {"ap", {"ap", "us"}}};
    base::NetworkTable table;
    EXPECT_TRUE(table.add(*base::parse_network_prefix("10.1.0.0/16"), 0).ok());
    EXPECT_TRUE(table.add(*base::parse_network_prefix("10.2.0.0/16"), 1).ok());
    EXPECT_TRUE(table.add(*base::parse_network_prefix("10.3.0.0/16"), 2).ok());
    spec.steering.networks = std::make_shared<const base::NetworkTable>(std::move(table));
    spec.steering.default_region = 1;
    return spec;
  }

  static health::HealthSnapshot up_except(std::initializer_list<const char*> down) {
    std::vector<std::pair<std::string, bool>> serving;
    for (const char* address : {"192.0.2.1", "192.0.2.2", "198.51.100.1", "203.0.113.1"}) {
      serving.emplace_back(address, std::find_if(down.begin(), down.end(), [&](const char* d) {
                                      return std::string(d) == address;
                                    }) == down.end());
    }
    return health_of(serving);
  }

  static const RegionAnswer& region(const PoolAnswer& pool, const std::string& name) {
    for (const auto& one : pool.regions) {
      if (one.region == name) return one;
    }
    ADD_FAILURE() << "no region " << name;
    return pool.regions.front();
  }

  // What the engine answers a client of `address` (IPv4 text).
  static std::vector<std::string> engine_answer(const PoolAnswers& answers, const char* address) {
    std::array<std::uint8_t, 4> bytes{};
    EXPECT_EQ(::inet_pton(AF_INET, address, bytes.data()), 1);
    auth::ClientNetwork network{bytes, 32};
    const auth::DynamicAnswer* entry = answers.dynamic()->find(*dns::Name::from_text("app.example.test."));
    EXPECT_NE(entry, nullptr);
    auto records = auth::select_records(*entry, dns::RRType::A, base::SteadyTime{}, &network);
    EXPECT_TRUE(records);
    std::vector<std::string> out;
    for (const auto& rdata : records->fixed->rdatas) out.push_back(dns::rdata_to_text(dns::RRType::A, rdata));
    std::sort(out.begin(), out.end());
    return out;
  }
};

TEST_F(SteeredBuilderTest, EachRegionFailsOverInItsOwnOrder) {
  AnswerBuilder builder(registry_, {steered_pool()});
  auto answers = builder.build(up_except({}), events_);
  const PoolAnswer& pool = answers->pools().front();
  ASSERT_EQ(pool.regions.size(), 3u);
  EXPECT_EQ(texts(region(pool, "eu").a), (std::vector<std::string>{"192.0.2.1", "192.0.2.2"}));
  EXPECT_EQ(region(pool, "eu").a.region, "eu");
  EXPECT_EQ(texts(region(pool, "us").a), std::vector<std::string>{"198.51.100.1"});
  EXPECT_FALSE(region(pool, "us").aaaa.configured);
  EXPECT_EQ(texts(pool.a), std::vector<std::string>{"198.51.100.1"});  // the default region's
  EXPECT_EQ(engine_answer(*answers, "10.1.9.9"), (std::vector<std::string>{"192.0.2.1", "192.0.2.2"}));
  EXPECT_EQ(engine_answer(*answers, "10.3.0.1"), std::vector<std::string>{"203.0.113.1"});
  EXPECT_EQ(engine_answer(*answers, "172.16.0.1"), std::vector<std::string>{"198.51.100.1"});  // default
  EXPECT_TRUE(events_.empty());

  // One eu endpoint down: eu keeps the other; nobody moves.
  answers = builder.build(up_except({"192.0.2.1"}), events_);
  EXPECT_EQ(texts(region(answers->pools().front(), "eu").a), std::vector<std::string>{"192.0.2.2"});
  EXPECT_TRUE(events_.empty());

  // eu all down: eu's clients go to us (next in eu's order); the move is reported once.
  answers = builder.build(up_except({"192.0.2.1", "192.0.2.2"}), events_);
  EXPECT_EQ(texts(region(answers->pools().front(), "eu").a), std::vector<std::string>{"198.51.100.1"});
  EXPECT_EQ(region(answers->pools().front(), "eu").a.region, "us");
  EXPECT_EQ(engine_answer(*answers, "10.1.0.1"), std::vector<std::string>{"198.51.100.1"});
  ASSERT_EQ(events_.size(), 1u);
  EXPECT_TRUE(events_[0].moved);
  EXPECT_EQ(events_[0].region, "eu");
  EXPECT_EQ(events_[0].served_from, "us");
  EXPECT_FALSE(events_[0].all_down);
  events_.clear();
  builder.build(up_except({"192.0.2.1", "192.0.2.2"}), events_);
  EXPECT_TRUE(events_.empty());

  // us down too: eu's next is ap; us's order (us, eu) has nothing left, so us's clients get
  // the whole pool's serving endpoints, which are ap's alone.
  answers = builder.build(up_except({"192.0.2.1", "192.0.2.2", "198.51.100.1"}), events_);
  EXPECT_EQ(texts(region(answers->pools().front(), "eu").a), std::vector<std::string>{"203.0.113.1"});
  EXPECT_EQ(region(answers->pools().front(), "eu").a.region, "ap");
  EXPECT_EQ(texts(region(answers->pools().front(), "us").a), std::vector<std::string>{"203.0.113.1"});
  EXPECT_EQ(region(answers->pools().front(), "us").a.region, "ap");
  EXPECT_EQ(events_.size(), 2u);  // eu: us -> ap, us: us -> ap
  events_.clear();

  // Back up: every region serves itself again, each return reported.
  answers = builder.build(up_except({}), events_);
  EXPECT_EQ(texts(region(answers->pools().front(), "eu").a), (std::vector<std::string>{"192.0.2.1", "192.0.2.2"}));
  EXPECT_EQ(events_.size(), 2u);
  for (const auto& event : events_) EXPECT_EQ(event.served_from, event.region);
}

// A steered pool of hostname endpoints: each region's clients get the CNAME to their region's
// target, on the fast path and the general path alike, and eu's clients move to us's target
// when eu's is down.
TEST_F(SteeredBuilderTest, ASteeredHostnamePoolAnswersEachRegionsTarget) {
  PoolSpec spec = steered_pool();
  for (auto& endpoint : spec.endpoints) {
    endpoint.address = "lb-" + endpoint.region + "-" + std::to_string(&endpoint - spec.endpoints.data()) + ".example.net.";
    endpoint.target = *dns::Name::from_text(endpoint.address);
  }
  AnswerBuilder builder(registry_, {spec});
  auto health = [&](bool eu_up) {
    std::vector<std::pair<std::string, bool>> serving;
    for (const auto& endpoint : spec.endpoints) serving.emplace_back(endpoint.address, eu_up || endpoint.region != "eu");
    return health_of(serving);
  };
  auth::ZoneSet zones({auth::testing::make_zone(
      "example.test.", {"example.test. 300 SOA ns.example.test. admin.example.test. 1 3600 600 86400 60",
                        "example.test. 300 NS ns.example.test.", "ns.example.test. 300 A 192.0.2.53"})});
  auto asked_from = [&](const PoolAnswers& answers, std::array<std::uint8_t, 4> source, bool general) {
    std::vector<std::uint8_t> response;
    auth::ClientContext client{source};
    auto query = auth::testing::make_query("app.example.test.", dns::RRType::A);
    auth::QueryOutcome outcome = general ? auth::answer_query_general(zones, query, auth::Transport::kUdp, response,
                                                                      answers.dynamic().get(), &client)
                                         : auth::answer_query(zones, answers.dynamic().get(), query, auth::Transport::kUdp,
                                                              response, true, &client);
    EXPECT_EQ(outcome.fast_path, !general);
    auto reply = dns::parse_message(response);
    EXPECT_TRUE(reply.ok());
    std::set<std::string> targets;
    for (const auto& record : reply->answers) targets.insert(dns::Name::from_uncompressed(record.rdata)->to_text());
    return targets;
  };
  auto answers = builder.build(health(true), events_);
  for (bool general : {false, true}) {
    // eu holds two targets: one of them per query, drawn with equal chance.
    std::set<std::string> eu;
    for (int i = 0; i < 100; ++i) {
      auto one = asked_from(*answers, {10, 1, 0, 1}, general);
      EXPECT_EQ(one.size(), 1u);
      eu.insert(one.begin(), one.end());
    }
    EXPECT_EQ(eu, (std::set<std::string>{"lb-eu-0.example.net.", "lb-eu-1.example.net."}));
    EXPECT_EQ(asked_from(*answers, {10, 3, 0, 1}, general), std::set<std::string>{"lb-ap-3.example.net."});
    EXPECT_EQ(asked_from(*answers, {172, 16, 0, 1}, general), std::set<std::string>{"lb-us-2.example.net."});
  }
  answers = builder.build(health(false), events_);
  for (bool general : {false, true}) {
    EXPECT_EQ(asked_from(*answers, {10, 1, 0, 1}, general), std::set<std::string>{"lb-us-2.example.net."});
  }
}

TEST_F(SteeredBuilderTest, AllDownIsPoolWideAndReportedOnce) {
  AnswerBuilder builder(registry_, {steered_pool(AllDownPolicy::kFallback)});
  builder.build(up_except({}), events_);
  events_.clear();
  auto answers = builder.build(up_except({"192.0.2.1", "192.0.2.2", "198.51.100.1", "203.0.113.1"}), events_);
  for (const auto& one : answers->pools().front().regions) {
    EXPECT_EQ(one.a.mode, AnswerMode::kFallback) << one.region;
    EXPECT_EQ(texts(one.a), std::vector<std::string>{"192.0.2.99"});
    EXPECT_EQ(one.a.region, "");
  }
  std::size_t all_down = 0;
  for (const auto& event : events_) all_down += event.all_down ? 1 : 0;
  EXPECT_EQ(all_down, 1u);  // one pool-wide entry event, not one per region
  EXPECT_EQ(engine_answer(*answers, "10.2.0.1"), std::vector<std::string>{"192.0.2.99"});
}

TEST_F(SteeredBuilderTest, MinHealthyPanicsPerRegion) {
  PoolSpec spec = steered_pool();
  spec.min_healthy = MinHealthy{2, false};
  AnswerBuilder builder(registry_, {spec});
  builder.build(up_except({}), events_);
  EXPECT_TRUE(events_.empty());
  // One of eu's two down: eu panics (both answered); us (one endpoint, threshold 1) does not.
  auto answers = builder.build(up_except({"192.0.2.1"}), events_);
  const PoolAnswer& pool = answers->pools().front();
  EXPECT_EQ(region(pool, "eu").a.mode, AnswerMode::kPanic);
  EXPECT_EQ(texts(region(pool, "eu").a), (std::vector<std::string>{"192.0.2.1", "192.0.2.2"}));
  EXPECT_EQ(region(pool, "us").a.mode, AnswerMode::kHealthy);
  ASSERT_EQ(events_.size(), 1u);  // the region's panic, not the pool-wide answer's too
  EXPECT_TRUE(events_[0].panic);
  EXPECT_TRUE(events_[0].all_down);
  EXPECT_EQ(events_[0].region, "eu");
}


// Hostname endpoints (docs/pools.md, "Hostname endpoints"): the pool answers one CNAME, to
// the endpoint its shape prefers among those serving, never an A or AAAA of its own.
PoolSpec hostname_pool(const std::string& shape, AllDownPolicy policy = AllDownPolicy::kFailOpen) {
  PoolSpec spec;
  spec.name = "app";
  spec.owner = *dns::Name::from_text("app.example.test.");
  spec.shape = shape;
  spec.when_all_down = policy;
  spec.fallback = {"sorry.example.net."};
  for (const auto& [name, priority] : std::vector<std::pair<std::string, int>>{
           {"lb-eu.example.net.", 1}, {"lb-us.example.net.", 2}, {"lb-ap.example.net.", 3}}) {
    EndpointSpec endpoint;
    endpoint.target = *dns::Name::from_text(name);
    endpoint.address = name;
    endpoint.priority = priority;
    endpoint.weight = static_cast<std::uint32_t>(priority);
    spec.endpoints.push_back(endpoint);
  }
  return spec;
}

health::HealthSnapshot hostnames_up(bool eu, bool us, bool ap) {
  return health_of({{"lb-ap.example.net.", ap}, {"lb-eu.example.net.", eu}, {"lb-us.example.net.", us}});
}

std::string cname_target(std::span<const std::uint8_t> rdata) { return dns::Name::from_uncompressed(rdata)->to_text(); }

TEST_F(AnswerBuilderTest, AHostnamePoolAnswersOneCnameToItsPreferredServingTarget) {
  for (const char* shape : {"failover", "all-healthy"}) {
    AnswerBuilder builder(registry_, {hostname_pool(shape)});
    auto answers = builder.build(hostnames_up(true, true, true), events_);
    const PoolAnswer& pool = answers->pools().front();
    EXPECT_TRUE(pool.alias);
    EXPECT_FALSE(pool.a.configured);  // no address of its own
    EXPECT_FALSE(pool.aaaa.configured);
    ASSERT_TRUE(pool.cname.configured);
    EXPECT_EQ(pool.cname.type, dns::RRType::CNAME);
    EXPECT_EQ(pool.cname.up, 3u);
    auto drawn = [&](const PoolAnswer& answer) {
      std::set<std::string> seen;
      for (int i = 0; i < 200; ++i) {
        auto records = select_records(answer, dns::RRType::CNAME, base::SteadyTime{});
        EXPECT_TRUE(records.ok());
        if (records->fixed != nullptr) {
          EXPECT_EQ(records->fixed->rdatas.size(), 1u);  // RFC 2181 §10.1: one CNAME
          for (const auto& rdata : records->fixed->rdatas) seen.insert(cname_target(rdata));
        } else {
          EXPECT_EQ(records->picked.size(), 1u);
          for (const auto& rdata : records->picked) seen.insert(cname_target(rdata));
        }
      }
      return seen;
    };
    // failover: the first priority alone; all-healthy: one of the three per query.
    std::set<std::string> all{"lb-eu.example.net.", "lb-us.example.net.", "lb-ap.example.net."};
    std::set<std::string> first{"lb-eu.example.net."};
    EXPECT_EQ(drawn(pool), std::string(shape) == "failover" ? first : all) << shape;
    answers = builder.build(hostnames_up(false, true, true), events_);
    std::set<std::string> two{"lb-us.example.net.", "lb-ap.example.net."};
    std::set<std::string> second{"lb-us.example.net."};
    EXPECT_EQ(drawn(answers->pools().front()), std::string(shape) == "failover" ? second : two) << shape;
    answers = builder.build(hostnames_up(false, false, true), events_);
    EXPECT_EQ(answers->pools().front().cname.addresses, std::vector<std::string>{"lb-ap.example.net."}) << shape;
    EXPECT_EQ(drawn(answers->pools().front()), std::set<std::string>{"lb-ap.example.net."}) << shape;
  }
  EXPECT_TRUE(events_.empty());
}

TEST_F(AnswerBuilderTest, AWeightedHostnamePoolDrawsOneTargetPerQuery) {
  AnswerBuilder builder(registry_, {hostname_pool("weighted")});
  auto answers = builder.build(hostnames_up(true, false, true), events_);
  const PoolAnswer& pool = answers->pools().front();
  EXPECT_EQ(pool.cname.per_query, 1u);
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    auto records = select_records(pool, dns::RRType::CNAME, base::SteadyTime{});
    ASSERT_TRUE(records.ok());
    ASSERT_EQ(records->picked.size(), 1u);
    seen.insert(cname_target(records->picked[0]));
  }
  // The two serving targets (weights 1 and 3), never the one that is down.
  EXPECT_EQ(seen, (std::set<std::string>{"lb-eu.example.net.", "lb-ap.example.net."}));
}

TEST_F(AnswerBuilderTest, AHostnamePoolWithNothingServingFollowsWhenAllDown) {
  struct Case {
    AllDownPolicy policy;
    AnswerMode mode;
    std::vector<std::string> cname;
  };
  for (const auto& test : std::vector<Case>{{AllDownPolicy::kFailOpen, AnswerMode::kFailOpen,
                                             {"lb-eu.example.net.", "lb-us.example.net.", "lb-ap.example.net."}},
                                            {AllDownPolicy::kFallback, AnswerMode::kFallback, {"sorry.example.net."}},
                                            {AllDownPolicy::kNoData, AnswerMode::kNoData, {}}}) {
    AnswerBuilder builder(registry_, {hostname_pool("failover", test.policy)});
    events_.clear();
    auto answers = builder.build(hostnames_up(false, false, false), events_);
    const FamilyAnswer& cname = answers->pools().front().cname;
    EXPECT_EQ(cname.mode, test.mode);
    EXPECT_EQ(cname.addresses, test.cname);
    ASSERT_EQ(events_.size(), 1u);
    EXPECT_EQ(events_[0].type, dns::RRType::CNAME);
    EXPECT_TRUE(events_[0].all_down);
  }
}

TEST_F(AnswerBuilderTest, AHostnamePoolInPanicStillAnswersOneCname) {
  PoolSpec spec = hostname_pool("failover");
  spec.min_healthy = MinHealthy{2, false};
  AnswerBuilder builder(registry_, {spec});
  auto answers = builder.build(hostnames_up(false, false, true), events_);
  const FamilyAnswer& cname = answers->pools().front().cname;
  EXPECT_EQ(cname.mode, AnswerMode::kPanic);
  // Every target is drawn from, one per query: the survivor is not sent everything.
  EXPECT_EQ(cname.addresses, (std::vector<std::string>{"lb-eu.example.net.", "lb-us.example.net.", "lb-ap.example.net."}));
  EXPECT_EQ(cname.per_query, 1u);
  EXPECT_TRUE(cname.fixed.rdatas.empty());
}

}  // namespace
}  // namespace cutover::pool
