// Pool answers in the engine: pool names answered from the PoolAnswers snapshot (never
// NXDOMAIN), CNAMEs into a pool followed, other names untouched, the pool reported.
#include "auth/dynamic_plan.h"

#include <gtest/gtest.h>

#include "auth/engine.h"
#include "auth/test_support.h"
#include "pool/answer_builder.h"
#include "pool/test_support.h"

namespace cutover::auth {
namespace {

using testing::make_query;
using testing::make_zone;
using testing::texts;

class PoolPlanTest : public ::testing::Test {
 protected:
  PoolPlanTest()
      : zones_({make_zone("example.test.", {"example.test. 3600 SOA ns.example.test. h.example.test. 1 2 3 4 300",
                                            "example.test. 3600 NS ns.example.test.",
                                            "ns.example.test. 3600 A 192.0.2.53",
                                            "alias.example.test. 300 CNAME app.example.test."})}) {
    pool::register_builtin_policies(policies_);
  }

  std::shared_ptr<const pool::PoolAnswers> answers(pool::AllDownPolicy policy, bool healthy) {
    pool::PoolSpec spec;
    spec.name = "app";
    spec.owner = *dns::Name::from_text("app.example.test.");
    spec.ttl = 20;
    spec.when_all_down = policy;
    spec.endpoints = {{"192.0.2.30", 80, 1, 1, {}, {}, {}, {}, {}}, {"198.51.100.30", 80, 2, 1, {}, {}, {}, {}, {}}};
    health::HealthSnapshot health;
    for (const auto& endpoint : spec.endpoints) {
      health.endpoints.push_back({"app", endpoint.address, health::HealthState::kUp, healthy, {}, false});
    }
    pool::AnswerBuilder builder(policies_, {spec});
    std::vector<pool::AllDownEvent> events;
    return builder.build(health, events);
  }

  dns::Message ask(const pool::PoolAnswers& pools, const std::string& name, dns::RRType type,
                   QueryOutcome* outcome_out = nullptr) {
    std::vector<std::uint8_t> response;
    QueryOutcome outcome = answer_query(zones_, pools.dynamic().get(), make_query(name, type), Transport::kUdp, response);
    if (outcome_out != nullptr) *outcome_out = outcome;
    auto parsed = dns::parse_message(response);
    EXPECT_TRUE(parsed.ok());
    return parsed.ok() ? *parsed : dns::Message{};
  }

  ZoneSet zones_;
  pool::PolicyRegistry policies_;
};

TEST_F(PoolPlanTest, PoolNameIsAnsweredFromTheSnapshot) {
  auto pools = answers(pool::AllDownPolicy::kFailOpen, true);
  QueryOutcome outcome;
  dns::Message reply = ask(*pools, "APP.example.test.", dns::RRType::A, &outcome);
  EXPECT_TRUE(reply.header.aa);
  EXPECT_EQ(texts(reply.answers), std::vector<std::string>{"APP.example.test. 20 A 192.0.2.30"});
  ASSERT_NE(outcome.dynamic, nullptr);
  EXPECT_EQ(outcome.dynamic->source, "app");
}

TEST_F(PoolPlanTest, OtherTypesAndEmptyAnswersAreNodataNeverNxdomain) {
  auto pools = answers(pool::AllDownPolicy::kNoData, false);
  for (dns::RRType type : {dns::RRType::A, dns::RRType::AAAA, dns::RRType::TXT}) {
    dns::Message reply = ask(*pools, "app.example.test.", type);
    EXPECT_EQ(reply.header.rcode, 0);
    EXPECT_TRUE(reply.answers.empty());
    EXPECT_EQ(texts(reply.authorities),
              std::vector<std::string>{"example.test. 300 SOA ns.example.test. h.example.test. 1 2 3 4 300"});
  }
}

TEST_F(PoolPlanTest, CnameIntoAPoolIsFollowed) {
  auto pools = answers(pool::AllDownPolicy::kFailOpen, true);
  dns::Message reply = ask(*pools, "alias.example.test.", dns::RRType::A);
  EXPECT_EQ(texts(reply.answers), (std::vector<std::string>{"alias.example.test. 300 CNAME app.example.test.",
                                                            "app.example.test. 20 A 192.0.2.30"}));
}

TEST_F(PoolPlanTest, OtherNamesAreUntouchedAndWithoutPoolsThePoolNameDoesNotExist) {
  auto pools = answers(pool::AllDownPolicy::kFailOpen, true);
  QueryOutcome outcome;
  dns::Message reply = ask(*pools, "ns.example.test.", dns::RRType::A, &outcome);
  EXPECT_EQ(texts(reply.answers), std::vector<std::string>{"ns.example.test. 3600 A 192.0.2.53"});
  EXPECT_EQ(outcome.dynamic, nullptr);
  pool::PoolAnswers none({});
  EXPECT_EQ(ask(none, "app.example.test.", dns::RRType::A).header.rcode, 3);  // NXDOMAIN
}

}  // namespace
}  // namespace cutover::auth
