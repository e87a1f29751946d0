// `cutover monitor --plan` against real peers on loopback: a `cutover serve` with the write
// API as the authoritative, and two real Unbounds stubbing to it: one plain, one with a TTL
// floor (`cache-min-ttl: 8`, a resolver that ignores the lowered TTL). The test writes a
// runbook with `cutover plan --json`, carries out its steps through the write API, and reads
// what the monitor says: the plain resolver is on time, the floored one holds the old answer
// past the plan's waits (a plan-window alert, a late step), and a change made before its wait
// passed is marked early. Every wait is bounded; children stop by PID.
#include <httplib.h>

#include <chrono>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/dig.h"
#include "support/process.h"
#include "support/server.h"
#include "tools/tool_lab.h"

namespace cutover::testing {
namespace {

using nlohmann::json;

constexpr const char* kZone = R"($ORIGIN example.test.
$TTL 6
@ IN SOA ns1 admin 10 3600 600 86400 6
@ IN NS ns1
ns1 IN A 127.0.0.1
app IN A 198.51.100.10
)";

// One RRset replaced through the write API (docs/writes.md).
void write_app(int control_port, const std::string& address, int ttl) {
  httplib::Client api("127.0.0.1", control_port);
  json edit = {{"edits", json::array({{{"op", "set"}, {"name", "app"}, {"type", "A"}, {"ttl", ttl},
                                       {"data", json::array({address})}}})}};
  auto written = api.Post("/zones/example.test/records", edit.dump(), "application/json");
  ASSERT_TRUE(written);
  ASSERT_EQ(written->status, 200) << written->body;
}

// The monitor's JSON document on its output (the status with the plan): it starts at the
// last line that is a lone "{" and runs to the end; the event lines before it are one-line objects.
json final_document(const std::string& log) {
  std::size_t at = log.rfind("\n{\n");
  if (at == std::string::npos) return json();
  json parsed = json::parse(log.substr(at + 1), nullptr, false);
  return parsed.is_discarded() ? json() : parsed;
}

std::uint32_t app_ttl_at(std::uint16_t port) {
  DigResult result = dig(port, "app.example.test", "A");
  return result.answer.empty() ? 0 : result.answer.front().ttl;
}

TEST(MonitorPlan, FollowsARunbookAndFindsTheResolverWithATtlFloor) {
  const auto started = std::chrono::steady_clock::now();
  std::string dir = make_temp_dir("cutover-monitor-plan");
  write_file(dir + "/zone.db", kZone);
  write_file(dir + "/serve.yaml", "control:\n  listen: 127.0.0.1:0\nwrites:\n  journal: journal.db\n"
                                  "zones:\n  - origin: example.test\n    file: zone.db\n");
  CutoverServer server(ServerSpec{.config = dir + "/serve.yaml"});
  ASSERT_TRUE(server.wait_for_log("control.listen"));
  const int control_port = server.control_port();
  ASSERT_NE(control_port, 0);
  const std::string stub = "  local-zone: \"test.\" nodefault\nstub-zone:\n  name: \"example.test.\"\n"
                           "  stub-addr: 127.0.0.1@" + std::to_string(server.port()) + "\n";
  std::filesystem::create_directories(dir + "/plain");
  std::filesystem::create_directories(dir + "/floored");
  const std::uint16_t plain_port = free_port();
  auto plain = start_unbound(dir + "/plain", plain_port, stub);
  const std::uint16_t floored_port = free_port();
  auto floored = start_unbound(dir + "/floored", floored_port, "  cache-min-ttl: 8\n" + stub);
  const std::string auth = "127.0.0.1:" + std::to_string(server.port());
  const std::string plain_addr = "127.0.0.1:" + std::to_string(plain_port);
  const std::string floored_addr = "127.0.0.1:" + std::to_string(floored_port);

  // The runbook: lower app's TTL from 6 s to 2 s, change one old TTL later, verify after 2 s.
  CommandResult planned = run_cutover({"plan", dir + "/zone.db", "--origin", "example.test", "--set",
                                       "app A 192.0.2.99", "--low-ttl", "2", "--resolvers",
                                       plain_addr + "," + floored_addr, "--json", "-o", dir + "/plan.json"});
  ASSERT_EQ(planned.exit_code, 0) << planned.out << planned.err;
  write_file(dir + "/monitor.yaml", "timeout: 500ms\ntries: 1\nmetrics: 127.0.0.1:0\n"
                                    "authoritatives: [\"" + auth + "\"]\n");
  // Both resolvers hold the 6 s answer before the monitor starts.
  EXPECT_EQ(dig(plain_port, "app.example.test", "A").status, "NOERROR");
  EXPECT_EQ(dig(floored_port, "app.example.test", "A").status, "NOERROR");

  ChildProcess monitor({CUTOVER_BINARY, "monitor", "--plan", dir + "/plan.json", "--config", dir + "/monitor.yaml",
                        "--interval", "300ms", "--max-duration", "60s", "--json"},
                       dir + "/monitor.log");
  ASSERT_TRUE(eventually([&] { return monitor.log().find("monitor.plan.start") != std::string::npos; },
                         std::chrono::seconds(10)))
      << monitor.log();

  // Step 1: lower the TTL (same data).
  write_app(control_port, "198.51.100.10", 2);
  auto logged = [&](const std::string& pattern) {
    return std::regex_search(monitor.log(), std::regex(pattern));
  };
  ASSERT_TRUE(eventually([&] { return logged(R"("kind":"done","offset_seconds":[^}]*"step":1)"); },
                         std::chrono::seconds(10)))
      << monitor.log();
  // The plain resolver's 6 s copy runs out; the floored one keeps TTLs >= 8 s.
  ASSERT_TRUE(eventually([&] { return logged(R"("kind":"resolver-ready".*"step":2)"); }, std::chrono::seconds(15)))
      << monitor.log();
  // Past the planned 6 s wait (plus slack) the floored resolver is an alert.
  ASSERT_TRUE(eventually([&] { return logged(R"("event":"monitor.alert".*"rule":"plan-window")"); },
                         std::chrono::seconds(15)))
      << monitor.log();
  EXPECT_NE(monitor.log().find(floored_addr), std::string::npos);

  // Step 2 anyway (early), right after the floored resolver took a fresh copy, so it holds
  // the old address for at least 6 s more.
  ASSERT_TRUE(eventually([&] { return app_ttl_at(floored_port) >= 7; }, std::chrono::seconds(12)));
  write_app(control_port, "192.0.2.99", 2);
  ASSERT_TRUE(eventually([&] { return logged(R"("kind":"ready".*"step":3)"); }, std::chrono::seconds(20)))
      << monitor.log();
  // Step 4: restore the TTL; the monitor ends once it sees that.
  write_app(control_port, "192.0.2.99", 6);
  std::optional<int> exit_code = monitor.wait_for_exit(std::chrono::seconds(15));
  ASSERT_TRUE(exit_code) << monitor.log();
  EXPECT_EQ(*exit_code, 1) << monitor.log();  // done, with findings: early and late

  json document = final_document(monitor.log());
  ASSERT_TRUE(document.contains("plan")) << monitor.log();
  const json& plan = document["plan"];
  EXPECT_EQ(plan["finished"], true);
  ASSERT_EQ(plan["steps"].size(), 4U);
  const json& change = plan["steps"][1];
  EXPECT_EQ(change["early"], true) << change.dump();
  EXPECT_TRUE(change["resolvers_ready_offset_seconds"].contains(plain_addr)) << change.dump();
  EXPECT_FALSE(change["resolvers_ready_offset_seconds"].contains(floored_addr)) << change.dump();
  const json& verify = plan["steps"][2];
  EXPECT_EQ(verify["planned_wait_seconds"], 2);
  EXPECT_EQ(verify["late"], true) << verify.dump();
  EXPECT_GE(verify["measured_wait_seconds"].get<double>(), 5.0) << verify.dump();
  EXPECT_LT(verify["measured_wait_seconds"].get<double>(), 12.0) << verify.dump();
  // The plain resolver moved within the planned 2 s (plus the monitor's slack).
  const double change_done = change["done_offset_seconds"];
  const double plain_moved = verify["resolvers_ready_offset_seconds"][plain_addr];
  EXPECT_LT(plain_moved - change_done, 2.0 + 0.3 + 0.5 + 0.5) << verify.dump();
  EXPECT_NE(plan["steps"][3]["done_offset_seconds"], nullptr);

  EXPECT_EQ(server.stop(), 0);
  std::printf("monitor --plan integration test took %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

// Every step within the plan: exit 0 with the step table on stdout. The negative TTL is 1 s,
// so a lookup of the new name cached before it existed is gone within the plan's 2 s.
TEST(MonitorPlan, OnTimeStepsExitZero) {
  std::string dir = make_temp_dir("cutover-monitor-plan-ok");
  std::string zone = kZone;
  zone.replace(zone.find("86400 6"), 7, "86400 1");
  write_file(dir + "/zone.db", zone);
  write_file(dir + "/serve.yaml", "control:\n  listen: 127.0.0.1:0\nwrites:\n  journal: journal.db\n"
                                  "zones:\n  - origin: example.test\n    file: zone.db\n");
  CutoverServer server(ServerSpec{.config = dir + "/serve.yaml"});
  ASSERT_TRUE(server.wait_for_log("control.listen"));
  const std::uint16_t unbound_port = free_port();
  auto unbound = start_unbound(dir, unbound_port,
                               "  local-zone: \"test.\" nodefault\nstub-zone:\n  name: \"example.test.\"\n"
                               "  stub-addr: 127.0.0.1@" + std::to_string(server.port()) + "\n");
  const std::string resolver = "127.0.0.1:" + std::to_string(unbound_port);
  const std::string auth = "127.0.0.1:" + std::to_string(server.port());
  // A new name: no TTL to lower, so the runbook is create, change (at once), verify.
  CommandResult planned = run_cutover({"plan", dir + "/zone.db", "--origin", "example.test", "--set",
                                       "api A 192.0.2.7", "--low-ttl", "2", "--resolvers", resolver, "--json", "-o",
                                       dir + "/plan.json"});
  ASSERT_EQ(planned.exit_code, 0) << planned.out << planned.err;
  ChildProcess monitor({CUTOVER_BINARY, "monitor", "--plan", dir + "/plan.json", "--auth", auth, "--interval",
                        "300ms", "--max-duration", "40s"},
                       dir + "/monitor.log");
  ASSERT_TRUE(eventually([&] { return monitor.log().find("monitor.plan.start") != std::string::npos; },
                         std::chrono::seconds(10)))
      << monitor.log();
  httplib::Client api("127.0.0.1", server.control_port());
  json edit = {{"edits", json::array({{{"op", "set"}, {"name", "api"}, {"type", "A"}, {"ttl", 2},
                                       {"data", json::array({"192.0.2.7"})}}})}};
  auto written = api.Post("/zones/example.test/records", edit.dump(), "application/json");
  ASSERT_TRUE(written && written->status == 200);
  std::optional<int> exit_code = monitor.wait_for_exit(std::chrono::seconds(30));
  ASSERT_TRUE(exit_code) << monitor.log();
  EXPECT_EQ(*exit_code, 0) << monitor.log();
  EXPECT_NE(monitor.log().find("every step done"), std::string::npos) << monitor.log();
  EXPECT_EQ(monitor.log().find("LATE"), std::string::npos) << monitor.log();
  EXPECT_EQ(server.stop(), 0);
}

// A runbook it cannot follow is "could not run" (exit 2), with the reason.
TEST(MonitorPlan, BadRunbooksExitTwoWithTheReason) {
  std::string dir = make_temp_dir("cutover-monitor-plan-bad");
  CommandResult missing = run_cutover({"monitor", "--plan", dir + "/none.json", "--resolvers", "127.0.0.1:1"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("none.json: cannot read the file"), std::string::npos) << missing.err;
  write_file(dir + "/text.md", "# Change runbook\n");
  CommandResult markdown = run_cutover({"monitor", "--plan", dir + "/text.md", "--resolvers", "127.0.0.1:1"});
  EXPECT_EQ(markdown.exit_code, 2);
  EXPECT_NE(markdown.err.find("not JSON (write it with cutover plan --json)"), std::string::npos) << markdown.err;
  write_file(dir + "/refused.json", R"({"refused": true, "refusal": "NS and records in one step"})");
  CommandResult refused = run_cutover({"monitor", "--plan", dir + "/refused.json", "--resolvers", "127.0.0.1:1"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("the plan was refused"), std::string::npos) << refused.err;
  write_file(dir + "/zone.db", kZone);
  ASSERT_EQ(run_cutover({"plan", dir + "/zone.db", "--origin", "example.test", "--set", "app A 192.0.2.1", "--json",
                         "-o", dir + "/plan.json"})
                .exit_code,
            0);
  CommandResult nowhere = run_cutover({"monitor", "--plan", dir + "/plan.json"});
  EXPECT_EQ(nowhere.exit_code, 2);
  EXPECT_NE(nowhere.err.find("no resolvers to watch"), std::string::npos) << nowhere.err;
  write_file(dir + "/m.yaml", "resolvers: [\"127.0.0.1:1\"]\nwatch:\n  - name: app.example.test\n");
  CommandResult stray = run_cutover({"monitor", "--config", dir + "/m.yaml", "--interval", "1s", "--once"});
  EXPECT_EQ(stray.exit_code, 2);
  EXPECT_NE(stray.err.find("go with --plan"), std::string::npos) << stray.err;
}

}  // namespace
}  // namespace cutover::testing
