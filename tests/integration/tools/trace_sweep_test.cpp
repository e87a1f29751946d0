// trace and sweep against `cutover serve` instances on one free port across 127.53.X.Y
// addresses (trace uses the --root port for every server, as dig -p does), and a real
// Unbound for sweep's resolver side and --until-agree.
#include <algorithm>
#include <csignal>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"
#include "tools/lab_zones.h"
#include "tools/tool_lab.h"

namespace cutover::testing {
namespace {

std::vector<std::string> rules_of(const nlohmann::json& findings) {
  std::vector<std::string> rules;
  for (const auto& finding : findings) rules.push_back(finding["rule"]);
  return rules;
}

std::string with_app_ttl_3(std::string zone) { return std::regex_replace(zone, std::regex("app 300"), "app 3"); }

bool has(const std::vector<std::string>& rules, const std::string& rule) {
  return std::find(rules.begin(), rules.end(), rule) != rules.end();
}

class ToolLabTest : public ::testing::Test {
 protected:
  void SetUp() override {
    port_ = free_port();
    dir_ = make_temp_dir("cutover-tools");
  }
  std::unique_ptr<ChildProcess> serve(int host, const std::string& origin, const std::string& text) {
    std::string file = dir_ + "/" + std::to_string(host) + "-" + origin + "zone";
    write_file(file, text);
    return start_auth(lab_ip(host), port_, {{origin, file}});
  }
  std::string at(int host) const { return lab_ip(host) + ":" + std::to_string(port_); }

  std::uint16_t port_ = 0;
  std::string dir_;
};

TEST_F(ToolLabTest, TraceFlagsEveryDelegationProblemAndKeepsWalking) {
  // The parent lists ns1 (new zone), ns2 (serves nothing: lame), ns3 (no server: unreachable);
  // ns1's zone lists ns1 and ns5, ns5 has an older serial, and ns1's address outlives its NS TTL.
  std::string extra = "corp 172800 IN NS ns2.corp\nns2.corp 172800 IN A " + lab_ip(6) +
                      "\ncorp 172800 IN NS ns3.corp\nns3.corp 172800 IN A " + lab_ip(7) + "\n";
  std::string child = "$TTL 3600\n@ IN SOA ns1.new hostmaster SERIAL 3600 600 86400 60\n@ 300 IN NS ns1.new\n"
                      "@ 300 IN NS ns5\nns1.new 86400 IN A " + lab_ip(4) + "\nns5 300 IN A " + lab_ip(5) +
                      "\napp 300 IN A 203.0.113.50\nwww 300 IN CNAME app\n";
  auto root = serve(1, ".", root_zone());
  auto parent = serve(2, "lab.", parent_zone("ns1.new", lab_ip(4), extra));
  auto ns1 = serve(4, "corp.lab.", std::regex_replace(child, std::regex("SERIAL"), "2"));
  auto ns5 = serve(5, "corp.lab.", std::regex_replace(child, std::regex("SERIAL"), "1"));
  auto lame = serve(6, "other.lab.", "@ 3600 IN SOA ns hm 1 3600 600 86400 60\n@ 3600 IN NS ns\nns 3600 IN A 192.0.2.1\n");

  auto run = run_cutover({"trace", "www.corp.lab", "A", "--root", at(1), "--json", "--timeout", "0.5", "--tries", "1"});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  auto result = nlohmann::json::parse(run.out);
  auto rules = rules_of(result["findings"]);
  for (const char* rule : {"ns-set-differs", "ns-ttl-differs", "glue-ttl-above-ns", "lame-delegation",
                           "server-unreachable", "serial-differs"}) {
    EXPECT_TRUE(has(rules, rule)) << rule << "\n" << run.out;
  }
  // Despite the broken servers the walk reaches the answer: the in-zone CNAME and its target.
  EXPECT_EQ(result["completed"], true);
  EXPECT_NE(result["answer"].get<std::string>().find("CNAME app.corp.lab."), std::string::npos);
  EXPECT_NE(result["answer"].get<std::string>().find("203.0.113.50"), std::string::npos);
}

TEST_F(ToolLabTest, TraceOfACleanDelegationHasNoWarnings) {
  auto root = serve(1, ".", root_zone());
  auto parent = serve(2, "lab.", parent_zone("ns1.new", lab_ip(4)));
  auto ns1 = serve(4, "corp.lab.", new_corp_zone());
  auto run = run_cutover({"trace", "app.corp.lab", "--root", at(1), "--timeout", "1"});
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("answer: NOERROR app.corp.lab. A 203.0.113.50"), std::string::npos) << run.out;
}

TEST_F(ToolLabTest, TraceReportsAnUnreachableRootAsCouldNotRun) {
  auto run = run_cutover({"trace", "app.corp.lab", "--root", at(9), "--timeout", "0.3", "--tries", "1"});
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_NE(run.out.find("zone-unreachable"), std::string::npos) << run.out;
}

TEST_F(ToolLabTest, SweepFlagsAuthoritativeServersWithDifferentSerialsAndASilentResolver) {
  auto old_server = serve(3, "corp.lab.", old_corp_zone());
  auto new_server = serve(4, "corp.lab.", new_corp_zone());
  std::uint16_t silent = free_port();  // nothing listens there
  auto run = run_cutover({"sweep", "app.corp.lab", "A", "--auth", at(3) + "," + at(4), "--resolvers",
                          "127.0.0.1:" + std::to_string(silent), "--timeout", "0.3", "--tries", "1", "--json"});
  ASSERT_EQ(run.exit_code, 1) << run.out << run.err;
  auto round = nlohmann::json::parse(run.out);
  EXPECT_EQ(round["reference_serial"], 2025061502);
  auto rules = rules_of(round["findings"]);
  EXPECT_TRUE(has(rules, "authoritative-disagrees"));
  EXPECT_TRUE(has(rules, "resolver-silent"));
  EXPECT_FALSE(has(rules, "resolver-differs")) << "a silent resolver is not a mismatch";
}

TEST_F(ToolLabTest, SweepUntilAgreeWaitsForUnboundToDropTheOldAnswer) {
  // One authoritative server; Unbound caches app with TTL 3, then the zone changes.
  std::string zone = dir_ + "/corp.zone";
  write_file(zone, with_app_ttl_3(new_corp_zone("1", "198.51.100.10")));
  auto server = start_auth(lab_ip(4), port_, {{"corp.lab.", zone}});
  std::uint16_t unbound_port = free_port();
  auto unbound = start_unbound(dir_, unbound_port,
                               "stub-zone:\n  name: \"corp.lab.\"\n  stub-addr: " + lab_ip(4) + "@" +
                                   std::to_string(port_) + "\n");
  std::string resolver = "127.0.0.1:" + std::to_string(unbound_port);
  ASSERT_EQ(DigResult::rdatas(dig_at("127.0.0.1", unbound_port, "app.corp.lab.", "A").answer, "A"),
            std::vector<std::string>{"198.51.100.10"});
  write_file(zone, with_app_ttl_3(new_corp_zone("2", "203.0.113.50")));
  server->signal(SIGHUP);
  auto run = run_cutover({"sweep", "app.corp.lab", "A", "--auth", at(4), "--resolvers", resolver, "--until-agree",
                          "--interval", "0.5", "--max-duration", "20", "--timeout", "1", "--json"},
                         std::chrono::seconds(40));
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  auto watch = nlohmann::json::parse(run.out);
  ASSERT_FALSE(watch["agreed_after"].is_null());
  // The copy lives at most its 3 s TTL (plus Unbound's whole-second rounding and reload time).
  EXPECT_LT(watch["agreed_after"].get<double>(), 10.0);
  EXPECT_GE(watch["rounds"].size(), 1u);
}

}  // namespace
}  // namespace cutover::testing
