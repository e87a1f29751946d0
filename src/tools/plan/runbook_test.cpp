// Unit tests for the change plan: the corp.lab migration of docs/tools.md as input, its runbook as the
// expected timeline arithmetic, and the refusal to change name servers and records together.
#include "tools/plan/runbook.h"

#include <gtest/gtest.h>

#include "tools/plan/runbook_output.h"
#include "zone/loader.h"

namespace cutover::tools {
namespace {

using std::chrono::seconds;

// The old zone of the docs/tools.md incident: app at 86400 s, the provider's defaults, negative TTL 3600 s.
constexpr const char* kMigrationOldZone = R"($TTL 86400
@    IN SOA ns1.oldhost.example.net. hostmaster 2025061401 7200 900 1209600 3600
@    IN NS  ns1.oldhost.example.net.
@    IN NS  ns2.oldhost.example.net.
app  IN A   198.51.100.10
www  IN A   198.51.100.10
)";

class RunbookTest : public ::testing::Test {
 protected:
  void SetUp() override {
    origin_ = *dns::Name::from_text("example.com.");
    auto load = zone::load_zone_text(origin_, kMigrationOldZone, "example.com.zone");
    ASSERT_TRUE(load.zone) << (load.diagnostics.empty() ? "" : load.diagnostics.front().to_string());
    zone_ = load.zone;
    request_.origin = origin_;
    request_.start = *parse_utc_time("2025-06-12T09:00Z");
  }
  RecordChange set(const char* text) { return *parse_set_change(text, origin_); }

  dns::Name origin_;
  std::shared_ptr<const zone::Zone> zone_;
  PlanRequest request_;
};

const RunbookStep* step_titled(const Runbook& book, const std::string& prefix) {
  for (const auto& step : book.steps) {
    if (step.title.starts_with(prefix)) return &step;
  }
  return nullptr;
}

TEST_F(RunbookTest, LowersTtlOneOldTtlBeforeTheChange) {
  request_.changes.push_back(set("app A 203.0.113.50"));
  Runbook book = build_runbook(*zone_, request_);
  ASSERT_FALSE(book.refused);
  EXPECT_EQ(book.max_old_ttl, 86400u);
  EXPECT_EQ(book.new_ttl, 300u);
  const auto* lower = step_titled(book, "Lower TTLs");
  const auto* change = step_titled(book, "Change the records");
  ASSERT_TRUE(lower && change);
  EXPECT_EQ(lower->offset, seconds{0});
  EXPECT_EQ(change->offset, seconds{86400});  // docs/tools.md, "cutover plan": change one old TTL later
  EXPECT_EQ(format_utc_time(change->at), "2025-06-13 09:00:00 UTC");
}

TEST_F(RunbookTest, StaleWindowIsNewTtlPlusSlowestClient) {
  request_.changes.push_back(set("app A 203.0.113.50"));
  request_.clients = *parse_client_inventory(
      "services:\n  - {name: billing, profile: openjdk21-default}\n  - {name: cron, profile: curl-long-lived}\n");
  Runbook book = build_runbook(*zone_, request_);
  EXPECT_EQ(book.slowest_client, 60);
  EXPECT_EQ(book.stale_window, 360);
  const auto* verify = step_titled(book, "Verify");
  ASSERT_NE(verify, nullptr);
  EXPECT_EQ(verify->offset, seconds{86400 + 360});
  ASSERT_FALSE(verify->commands.empty());
  EXPECT_NE(verify->commands.front().find("--until-agree"), std::string::npos);
}

TEST_F(RunbookTest, NewNameCarriesNegativeTtlExposure) {
  request_.changes.push_back(set("api-v2 A 203.0.113.51"));
  Runbook book = build_runbook(*zone_, request_);
  EXPECT_EQ(book.negative_ttl, 3600u);  // RFC 2308 §5: an hour of NXDOMAIN for api-v2
  ASSERT_FALSE(book.warnings.empty());
  EXPECT_EQ(book.warnings.front().rule, "negative-ttl-exposure");
  const auto* create = step_titled(book, "Lower TTLs and create");
  ASSERT_NE(create, nullptr);
  EXPECT_EQ(create->offset, seconds{0});
}

TEST_F(RunbookTest, RefusesNameserversAndRecordsInOneStep) {
  request_.changes.push_back(set("app A 203.0.113.50"));
  request_.new_nameservers = *parse_nameserver_list("ns1.newdns.example.net.,ns2.newdns.example.net.", origin_);
  Runbook book = build_runbook(*zone_, request_);
  EXPECT_TRUE(book.refused);
  EXPECT_NE(book.refusal.find("one step"), std::string::npos);
  EXPECT_TRUE(book.steps.empty());
  request_.force = true;
  Runbook forced = build_runbook(*zone_, request_);
  EXPECT_FALSE(forced.refused);
  EXPECT_NE(runbook_to_markdown(forced).find("OLD zone"), std::string::npos);
}

TEST_F(RunbookTest, NameserverMoveKeepsOldServersTwiceTheLargerNsTtl) {
  request_.new_nameservers = *parse_nameserver_list("ns1.newdns.example.net.,ns2.newdns.example.net.", origin_);
  request_.parent_ns_ttl = 172800;
  Runbook book = build_runbook(*zone_, request_);
  ASSERT_FALSE(book.refused);
  EXPECT_EQ(book.child_ns_ttl, 86400u);
  // The child NS TTL is lowered to 300 s and waited out (86400 s) before the move; then the
  // parent's 172800 s governs, twice: the old zone stays identical for four days.
  const auto* change = step_titled(book, "Change the name servers");
  const auto* retire = step_titled(book, "Decommission");
  ASSERT_TRUE(change && retire);
  EXPECT_EQ(change->offset, seconds{86400});
  EXPECT_EQ(book.keep_old_servers, seconds{2 * 172800});
  EXPECT_EQ(retire->offset, seconds{86400 + 2 * 172800});
}

TEST_F(RunbookTest, MissingParentNsTtlIsAssumedAndSaidSo) {
  request_.new_nameservers = *parse_nameserver_list("ns1.newdns.example.net.", origin_);
  Runbook book = build_runbook(*zone_, request_);
  EXPECT_EQ(book.parent_ns_ttl, kAssumedParentNsTtl);
  ASSERT_FALSE(book.warnings.empty());
  EXPECT_EQ(book.warnings.front().rule, "parent-ns-ttl-assumed");
}

// What `cutover monitor --plan` watches: each step's ready and done checks.
TEST_F(RunbookTest, StepsCarryTheChecksTheMonitorFollows) {
  request_.changes.push_back(set("app A 203.0.113.50"));
  request_.changes.push_back(set("app A 203.0.113.51"));
  request_.changes.push_back(*parse_delete_change("www A", origin_));
  Runbook book = build_runbook(*zone_, request_);
  ASSERT_EQ(book.steps.size(), 4u);
  const auto& lower = book.steps[0];
  ASSERT_EQ(lower.done.size(), 2u);  // both RRsets are lowered
  EXPECT_EQ(lower.done[0].source, StepCheck::Source::kAuthoritatives);
  EXPECT_EQ(lower.done[0].condition, StepCheck::Condition::kTtlAtMost);
  EXPECT_EQ(lower.done[0].ttl, 300u);
  EXPECT_TRUE(lower.ready.empty());
  const auto& change = book.steps[1];
  ASSERT_EQ(change.ready.size(), 2u);  // the old 86400 s copies gone from the resolvers
  EXPECT_EQ(change.ready[0].source, StepCheck::Source::kResolvers);
  EXPECT_EQ(change.ready[0].condition, StepCheck::Condition::kTtlAtMost);
  ASSERT_EQ(change.done.size(), 2u);
  EXPECT_EQ(change.done[0].condition, StepCheck::Condition::kServes);
  EXPECT_EQ(change.done[0].rdata, (std::vector<std::string>{"203.0.113.50", "203.0.113.51"}));  // one RRset
  EXPECT_EQ(change.done[1].condition, StepCheck::Condition::kAbsent);
  EXPECT_EQ(change.done[1].name.to_text(), "www.example.com.");
  const auto& verify = book.steps[2];
  ASSERT_EQ(verify.ready.size(), 2u);
  EXPECT_EQ(verify.ready[0].source, StepCheck::Source::kResolvers);
  EXPECT_EQ(verify.ready[0].rdata, change.done[0].rdata);
  EXPECT_TRUE(verify.done.empty());
  const auto& restore = book.steps[3];
  ASSERT_EQ(restore.done.size(), 1u);  // the deleted RRset has no TTL to restore
  EXPECT_EQ(restore.done[0].condition, StepCheck::Condition::kTtlAtLeast);
  EXPECT_EQ(restore.done[0].ttl, 86400u);
}

TEST_F(RunbookTest, NameserverTimeRulesPointAtTheNsChangeAfterSorting) {
  request_.new_nameservers = *parse_nameserver_list("ns1.new.example.,ns2.new.example.", origin_);
  request_.parent_ns_ttl = 3600;
  Runbook book = build_runbook(*zone_, request_);
  const auto* change = step_titled(book, "Change the name servers");
  const auto* retire = step_titled(book, "Decommission");
  ASSERT_TRUE(change && retire);
  const std::size_t change_index = static_cast<std::size_t>(change - book.steps.data());
  ASSERT_EQ(retire->ready.size(), 1u);
  EXPECT_EQ(retire->ready[0].condition, StepCheck::Condition::kElapsed);
  EXPECT_EQ(retire->ready[0].since_step, change_index);
  EXPECT_EQ(retire->ready[0].seconds, 2u * 3600u);
  ASSERT_EQ(change->done.size(), 1u);
  EXPECT_EQ(change->done[0].rdata, (std::vector<std::string>{"ns1.new.example.", "ns2.new.example."}));
}

TEST_F(RunbookTest, JsonReadsBackWithItsChecks) {
  request_.changes.push_back(set("app A 203.0.113.50"));
  request_.resolvers = {"127.0.0.1:5301"};
  Runbook book = build_runbook(*zone_, request_);
  auto back = runbook_from_json(runbook_to_json(book));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->origin, "example.com.");
  EXPECT_EQ(back->start, book.start);
  EXPECT_EQ(back->resolvers, book.resolvers);
  ASSERT_EQ(back->steps.size(), book.steps.size());
  for (std::size_t i = 0; i < book.steps.size(); ++i) {
    EXPECT_EQ(back->steps[i].offset, book.steps[i].offset);
    EXPECT_EQ(back->steps[i].title, book.steps[i].title);
    ASSERT_EQ(back->steps[i].ready.size(), book.steps[i].ready.size());
    ASSERT_EQ(back->steps[i].done.size(), book.steps[i].done.size());
    for (std::size_t j = 0; j < book.steps[i].done.size(); ++j) {
      EXPECT_EQ(back->steps[i].done[j].condition, book.steps[i].done[j].condition);
      EXPECT_EQ(back->steps[i].done[j].name, book.steps[i].done[j].name);
      EXPECT_EQ(back->steps[i].done[j].rdata, book.steps[i].done[j].rdata);
      EXPECT_EQ(back->steps[i].done[j].ttl, book.steps[i].done[j].ttl);
    }
  }
}

TEST(RunbookJsonTest, BadDocumentsSayWhere) {
  EXPECT_FALSE(runbook_from_json(nlohmann::json::array()).ok());
  nlohmann::json refused = {{"refused", true}, {"refusal", "NS and records"}};
  EXPECT_NE(runbook_from_json(refused).error().message.find("refused"), std::string::npos);
  nlohmann::json document = {{"origin", "example.com."},
                             {"start", "2025-06-12 09:00:00 UTC"},
                             {"steps", {{{"offset_seconds", 0}, {"title", "x"},
                                         {"done", {{{"condition", "serves"}, {"source", "resolvers"},
                                                    {"name", "app.example.com."}, {"type", "A"}}}}}}}};
  auto missing_rdata = runbook_from_json(document);
  ASSERT_FALSE(missing_rdata.ok());
  EXPECT_NE(missing_rdata.error().message.find("steps[0].done[0]"), std::string::npos) << missing_rdata.error().message;
  document["steps"][0]["done"][0]["rdata"] = {"192.0.2.1"};
  EXPECT_TRUE(runbook_from_json(document).ok());
  document["steps"][0]["done"][0]["condition"] = "sometime";
  EXPECT_FALSE(runbook_from_json(document).ok());
  document["steps"][0]["done"][0]["condition"] = "elapsed";
  document["steps"][0]["done"][0]["seconds"] = 10;
  document["steps"][0]["done"][0]["since_step"] = 4;  // no such step
  EXPECT_FALSE(runbook_from_json(document).ok());
  document["steps"][0]["title"] = 7;  // wrong type: an error, not an exception
  EXPECT_FALSE(runbook_from_json(document).ok());
}

TEST(PlanRequestTest, ParsesChangesAndRejectsBadOnes) {
  auto origin = *dns::Name::from_text("example.com.");
  auto change = parse_set_change("app A 203.0.113.50", origin);
  ASSERT_TRUE(change.ok());
  EXPECT_EQ(change->text(), "set app.example.com. A 203.0.113.50");
  EXPECT_FALSE(parse_set_change("app A not-an-ip", origin).ok());
  EXPECT_FALSE(parse_set_change("app.other.org. A 192.0.2.1", origin).ok());
  EXPECT_TRUE(parse_delete_change("www A", origin).ok());
  EXPECT_FALSE(parse_delete_change("www", origin).ok());
  EXPECT_FALSE(parse_client_inventory("services: [{name: x, profile: nope}]").ok());
  EXPECT_FALSE(parse_client_inventory("services: [{name: x, client: java}]").ok());  // lab id without a lab run
  MeasuredClient java;
  java.id = "java";
  java.cache_seconds = 30.5;
  std::vector<MeasuredClient> measured = {java};
  auto inventory = parse_client_inventory("services: [{name: billing, client: java}, {name: cli, client: curl-long-lived}]",
                                          measured);
  ASSERT_TRUE(inventory.ok());
  EXPECT_DOUBLE_EQ(inventory->at(0).cache_seconds, 30.5);
  EXPECT_DOUBLE_EQ(inventory->at(1).cache_seconds, 60);
  EXPECT_FALSE(parse_utc_time("2025-13-01T00:00Z").ok());
}

}  // namespace
}  // namespace cutover::tools
