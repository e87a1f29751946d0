// The docs/tools.md incident reproduced on loopback: the old provider's zone still live, the parent already
// delegating to the new servers, one Unbound that cached the old delegation and record
// before the change and one that resolves fresh afterwards. trace and sweep must both flag
// it, and plan must refuse the one-step change and produce the runbook that prevents it.
// Full iteration from a lab root needs every server on port 53 (glue carries no port):
// skipped when 127.53.X.Y:53 cannot be bound.
#include <algorithm>
#include <csignal>
#include <map>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"
#include "tools/lab_zones.h"
#include "tools/tool_lab.h"

namespace cutover::testing {
namespace {

constexpr std::uint16_t kDnsPort = 53;

class MigrationIncidentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int host : {1, 2, 3, 4}) {
      if (!can_bind(lab_ip(host), kDnsPort)) GTEST_SKIP() << "cannot bind " << lab_ip(host) << ":53";
    }
    dir_ = make_temp_dir("cutover-incident");
    write_file(dir_ + "/root.zone", root_zone());
    write_file(dir_ + "/lab.zone", parent_zone("ns1.old", lab_ip(3)));
    write_file(dir_ + "/old.zone", old_corp_zone());
    write_file(dir_ + "/new.zone", new_corp_zone());
    root_ = start_auth(lab_ip(1), kDnsPort, {{".", dir_ + "/root.zone"}});
    parent_ = start_auth(lab_ip(2), kDnsPort, {{"lab.", dir_ + "/lab.zone"}});
    old_ = start_auth(lab_ip(3), kDnsPort, {{"corp.lab.", dir_ + "/old.zone"}});
    new_ = start_auth(lab_ip(4), kDnsPort, {{"corp.lab.", dir_ + "/new.zone"}});
  }

  std::unique_ptr<ChildProcess> resolver(const std::string& name, std::uint16_t& port) {
    std::string dir = dir_ + "/" + name;
    run_command({"mkdir", "-p", dir}, std::chrono::seconds(5));
    port = free_port();
    return start_unbound(dir, port, "stub-zone:\n  name: \".\"\n  stub-addr: " + lab_ip(1) + "\n");
  }

  // The registrar change: the parent now delegates corp.lab. to the new provider.
  void move_delegation() {
    write_file(dir_ + "/lab.zone", parent_zone("ns1.new", lab_ip(4)));
    parent_->signal(SIGHUP);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      auto reply = dig_at(lab_ip(2), kDnsPort, "app.corp.lab.", "A", {"+norec"});
      if (DigResult::rdatas(reply.authority, "NS") == std::vector<std::string>{"ns1.new.corp.lab."}) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL() << "parent did not reload the new delegation";
  }

  std::string dir_;
  std::unique_ptr<ChildProcess> root_, parent_, old_, new_;
};

TEST_F(MigrationIncidentTest, TraceAndSweepFlagTheLiveOldZoneAndTheStaleResolver) {
  std::uint16_t stale_port = 0, fresh_port = 0;
  auto stale = resolver("stale", stale_port);
  // Before the change: the stale resolver caches the old delegation and app's 86400 s record.
  auto before = dig_at("127.0.0.1", stale_port, "app.corp.lab.", "A");
  ASSERT_EQ(DigResult::rdatas(before.answer, "A"), std::vector<std::string>{"198.51.100.10"}) << before.raw;

  move_delegation();
  auto fresh = resolver("fresh", fresh_port);
  auto after = dig_at("127.0.0.1", fresh_port, "app.corp.lab.", "A");
  ASSERT_EQ(DigResult::rdatas(after.answer, "A"), std::vector<std::string>{"203.0.113.50"}) << after.raw;

  // trace from the lab root: the delegation leads to the new servers, the old one is still live.
  auto trace = run_cutover({"trace", "app.corp.lab", "A", "--root", lab_ip(1), "--old-servers", lab_ip(3), "--json",
                            "--timeout", "1"});
  ASSERT_EQ(trace.exit_code, 1) << trace.out << trace.err;
  auto traced = nlohmann::json::parse(trace.out);
  EXPECT_EQ(traced["answer"], "NOERROR app.corp.lab. A 203.0.113.50");
  std::vector<std::string> rules;
  for (const auto& finding : traced["findings"]) rules.push_back(finding["rule"]);
  EXPECT_NE(std::find(rules.begin(), rules.end(), "old-zone-live"), rules.end()) << trace.out;
  ASSERT_EQ(traced["cuts"].size(), 2u);
  EXPECT_EQ(traced["cuts"][1]["parent_ns_ttl"], 172800);

  // sweep through both resolvers: the authoritative servers are found through their NS
  // answers, so the stale resolver leads the sweep to the old zone as well.
  auto sweep = run_cutover({"sweep", "app.corp.lab", "A", "--resolvers",
                            "127.0.0.1:" + std::to_string(stale_port) + ",127.0.0.1:" + std::to_string(fresh_port),
                            "--json", "--timeout", "1"});
  ASSERT_EQ(sweep.exit_code, 1) << sweep.out << sweep.err;
  auto swept = nlohmann::json::parse(sweep.out);
  EXPECT_EQ(swept["reference"], "NOERROR app.corp.lab. A 203.0.113.50");
  EXPECT_EQ(swept["reference_serial"], 2025061502);
  std::map<std::string, std::string> status;
  for (const auto& source : swept["sources"]) status[source["server"]] = source["status"];
  EXPECT_EQ(status[lab_ip(3) + ":53"], "differs") << sweep.out;
  EXPECT_EQ(status[lab_ip(4) + ":53"], "ok");
  EXPECT_EQ(status["127.0.0.1:" + std::to_string(stale_port)], "differs");
  EXPECT_EQ(status["127.0.0.1:" + std::to_string(fresh_port)], "ok");
  bool stale_ttl_reported = false;
  for (const auto& source : swept["sources"]) {
    if (source["server"] == "127.0.0.1:" + std::to_string(stale_port)) stale_ttl_reported = source["ttl"] > 80000;
  }
  EXPECT_TRUE(stale_ttl_reported) << "the stale copy carries most of its 86400 s TTL";
}

TEST(MigrationIncidentPlanTest, PlanRefusesTheOneStepChangeAndDatesTheSafeOne) {
  std::string dir = make_temp_dir("cutover-incident-plan");
  write_file(dir + "/corp.lab.zone", old_corp_zone());
  const std::string zone = dir + "/corp.lab.zone";
  auto refused = run_cutover({"plan", zone, "--set", "app A 203.0.113.50", "--move-ns", "ns1.new.corp.lab.",
                              "--start", "2025-06-12T09:00Z"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_NE(refused.err.find("refusing to change name servers and records in one step"), std::string::npos)
      << refused.err;

  auto records = run_cutover({"plan", zone, "--set", "app A 203.0.113.50", "--start", "2025-06-12T09:00Z", "--json"});
  ASSERT_EQ(records.exit_code, 0) << records.err;
  auto book = nlohmann::json::parse(records.out);
  EXPECT_EQ(book["max_old_ttl"], 86400);
  EXPECT_EQ(book["new_ttl"], 300);
  // Lower now, change a full old TTL later (the step the docs/tools.md incident skipped).
  EXPECT_EQ(book["steps"][0]["offset_seconds"], 0);
  EXPECT_EQ(book["steps"][1]["at"], "2025-06-13 09:00:00 UTC");

  auto nameservers = run_cutover({"plan", zone, "--move-ns", "ns1.new.corp.lab.", "--parent-ns-ttl", "172800",
                                  "--start", "2025-06-13T09:05Z"});
  ASSERT_EQ(nameservers.exit_code, 0) << nameservers.err;
  EXPECT_NE(nameservers.out.find("2 x max(parent 172800 s"), std::string::npos) << nameservers.out;
  EXPECT_NE(nameservers.out.find("keep the old zone identical"), std::string::npos);
}

}  // namespace
}  // namespace cutover::testing
