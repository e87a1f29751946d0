// Unit tests for following a runbook: rounds made up here (what the sweep would have seen),
// times given by the test. The same behaviour against a real cutover serve and real Unbound is
// in tests/integration/monitor/monitor_plan_test.cpp.
#include "monitor/plan_follow.h"

#include <gtest/gtest.h>

#include "tools/plan/runbook.h"
#include "zone/loader.h"

namespace cutover::monitor {
namespace {

constexpr const char* kZone = R"($TTL 60
@    IN SOA ns1 hostmaster 1 7200 900 1209600 30
@    IN NS  ns1
ns1  IN A   127.0.0.1
app  IN A   198.51.100.10
)";

constexpr const char* kAuth = "127.0.0.1:5400";
constexpr const char* kFast = "127.0.0.1:5401";
constexpr const char* kSlow = "127.0.0.1:5402";

tools::SourceResult source(const char* server, bool authoritative, const char* address, std::uint32_t ttl) {
  tools::SourceResult out;
  out.authoritative = authoritative;
  out.probe.server = server;
  out.probe.answered = true;
  out.probe.answers = {std::string("app.example.test. A ") + address};
  out.probe.min_ttl = ttl;
  return out;
}

WatchOutcome round_of(std::vector<tools::SourceResult> sources) {
  WatchOutcome out;
  out.name = "app.example.test.";
  out.type = "A";
  out.round.sources = std::move(sources);
  return out;
}

class PlanFollowerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto origin = *dns::Name::from_text("example.test.");
    auto load = zone::load_zone_text(origin, kZone, "example.test.zone");
    ASSERT_TRUE(load.zone);
    tools::PlanRequest request;
    request.origin = origin;
    request.low_ttl = 10;
    request.start = std::chrono::sys_seconds(std::chrono::seconds(1000));
    request.changes.push_back(*tools::parse_set_change("app A 203.0.113.50", origin));
    book_ = tools::build_runbook(*load.zone, request);
    ASSERT_EQ(book_.steps.size(), 4u);  // lower, change (T+60), verify (T+70), restore (T+70)
  }

  // Every source in one round: the authoritative's answer and each resolver's.
  std::vector<WatchOutcome> observed(const char* auth, std::uint32_t auth_ttl, const char* fast, std::uint32_t fast_ttl,
                                     const char* slow, std::uint32_t slow_ttl) {
    return {round_of({source(kAuth, true, auth, auth_ttl), source(kFast, false, fast, fast_ttl),
                      source(kSlow, false, slow, slow_ttl)})};
  }

  tools::Runbook book_;
};

TEST_F(PlanFollowerTest, MeasuresEachWaitAndFlagsTheResolverThatHeldOn) {
  PlanFollower follower(book_, 2.0);
  ASSERT_EQ(follower.watches().size(), 1u);
  const char* old_address = "198.51.100.10";
  const char* new_address = "203.0.113.50";

  // T+1: the TTL is lowered at the authoritative; the resolvers still hold 60 s copies.
  follower.observe(observed(old_address, 10, old_address, 55, old_address, 58), 1001);
  const auto& steps = follower.progress().steps;
  EXPECT_TRUE(steps[0].done_at);
  EXPECT_FALSE(steps[1].ready_at);
  EXPECT_NE(steps[1].waiting_for.find("TTL 55 (> 10)"), std::string::npos) << steps[1].waiting_for;

  // T+50: the fast resolver's copy is at its tail, the slow one's (a TTL floor) is not.
  auto events = follower.observe(observed(old_address, 10, old_address, 9, old_address, 40), 1050);
  EXPECT_TRUE(events.empty());  // a small TTL counts only once it held longer than itself
  EXPECT_NE(steps[1].waiting_for.find("settling"), std::string::npos) << steps[1].waiting_for;
  // T+63: the fast one refreshed and still shows <= 10: counted from T+50.
  events = follower.observe(observed(old_address, 10, old_address, 10, old_address, 27), 1063);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, "resolver-ready");
  EXPECT_DOUBLE_EQ(steps[1].resolver_ready.at(kFast), 1050);
  EXPECT_FALSE(steps[1].ready_at);
  EXPECT_TRUE(follower.conditions(1060).empty());  // 59 s waited of 60 planned
  // T+65: past the planned 60 s plus 2 s slack: a plan-window condition naming the resolver.
  auto late = follower.conditions(1065);
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0].rule, kRulePlanWindow);
  EXPECT_EQ(late[0].subject, "step 2: Change the records (not the name servers)");
  EXPECT_NE(late[0].message.find(kSlow), std::string::npos) << late[0].message;

  // A floor shows small TTLs at the end of each copy, then its floor again: no run.
  follower.observe(observed(old_address, 10, old_address, 9, old_address, 3), 1066);
  follower.observe(observed(old_address, 10, old_address, 8, old_address, 20), 1068);
  EXPECT_FALSE(steps[1].resolver_ready.contains(kSlow));
  // T+70: the slow one shows 10 and keeps it below across a refresh: ready from T+70, and
  // the wait was 69 s against 60 planned: late.
  follower.observe(observed(old_address, 10, old_address, 9, old_address, 10), 1070);
  follower.observe(observed(old_address, 10, old_address, 9, old_address, 9), 1083);
  EXPECT_TRUE(steps[1].ready_at);
  EXPECT_DOUBLE_EQ(*steps[1].ready_at, 1070);
  EXPECT_DOUBLE_EQ(*steps[1].measured_wait, 69);
  EXPECT_DOUBLE_EQ(*steps[1].planned_wait, 60);
  EXPECT_TRUE(steps[1].late);
  EXPECT_FALSE(steps[1].done_at);  // the change is not made yet
  EXPECT_NE(steps[1].waiting_for.find("action not seen"), std::string::npos);

  // T+84: changed at the authoritative; the resolvers still serve the old address.
  follower.observe(observed(new_address, 10, old_address, 8, old_address, 8), 1084);
  // T+93: both resolvers moved: 9 s after the change, within the planned 10 s.
  follower.observe(observed(new_address, 10, new_address, 10, new_address, 10), 1093);
  EXPECT_TRUE(steps[2].ready_at);
  EXPECT_TRUE(steps[2].done_at);  // no action of its own
  EXPECT_DOUBLE_EQ(*steps[2].measured_wait, 9);
  EXPECT_FALSE(steps[2].late);
  EXPECT_FALSE(follower.progress().finished);  // the TTL is not restored yet
  // T+100: the TTL restored at the authoritative: every step done.
  follower.observe(observed(new_address, 60, new_address, 10, new_address, 10), 1100);
  EXPECT_TRUE(steps[3].done_at);
  EXPECT_TRUE(follower.progress().finished);
  nlohmann::json json = plan_progress_to_json(follower.progress());
  EXPECT_EQ(json["steps"][1]["late"], true);
  EXPECT_EQ(json["steps"][1]["resolvers_ready_offset_seconds"][kSlow], 70);
  EXPECT_EQ(json["steps"][1]["resolvers_ready_offset_seconds"][kFast], 50);
  EXPECT_NE(plan_progress_to_text(follower.progress()).find("LATE"), std::string::npos);
}

TEST_F(PlanFollowerTest, AChangeMadeBeforeItsWaitPassedIsEarly) {
  PlanFollower follower(book_, 2.0);
  const char* old_address = "198.51.100.10";
  const char* new_address = "203.0.113.50";
  follower.observe(observed(old_address, 10, old_address, 55, old_address, 55), 1001);
  // The change at T+5, while both resolvers still hold 50 s copies.
  auto events = follower.observe(observed(new_address, 10, old_address, 50, old_address, 50), 1005);
  const auto& steps = follower.progress().steps;
  EXPECT_TRUE(steps[1].done_at);
  EXPECT_TRUE(steps[1].early);
  bool early = false;
  for (const auto& event : events) early = early || event.kind == "early";
  EXPECT_TRUE(early);
}

TEST_F(PlanFollowerTest, ASilentResolverKeepsTheStepWaiting) {
  PlanFollower follower(book_, 2.0);
  const char* old_address = "198.51.100.10";
  follower.observe(observed(old_address, 10, old_address, 5, old_address, 5), 1001);
  follower.observe(observed(old_address, 10, old_address, 5, old_address, 5), 1015);
  auto sources = observed(old_address, 10, old_address, 5, old_address, 5);
  sources[0].round.sources[2].probe.answered = false;  // the slow resolver times out
  sources[0].round.sources[2].probe.answers.clear();
  // With both answering, the step was ready (from T+1); a silent one is never counted as ready.
  PlanFollower fresh(book_, 2.0);
  fresh.observe(sources, 1001);
  EXPECT_FALSE(fresh.progress().steps[1].ready_at);
  EXPECT_NE(fresh.progress().steps[1].waiting_for.find("no reply"), std::string::npos)
      << fresh.progress().steps[1].waiting_for;
  EXPECT_TRUE(follower.progress().steps[1].ready_at);
}

}  // namespace
}  // namespace cutover::monitor
