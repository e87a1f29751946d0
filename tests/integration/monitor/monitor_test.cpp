// `cutover monitor` against real peers on loopback: two `cutover serve` authoritatives (one
// with the write API), a real Unbound stubbing to the writable one, and a webhook listener in
// the test. The record is changed through the write API, so the old authoritative and the
// resolver's cache disagree with the new zone: the monitor's /metrics must say so and the
// webhook must receive the mismatch alert. Every wait is bounded; children stop by PID.
#include <httplib.h>

#include <chrono>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"
#include "support/server.h"
#include "tools/tool_lab.h"

namespace cutover::testing {
namespace {

using nlohmann::json;

constexpr const char* kZone = R"($ORIGIN example.test.
$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
ns1 IN A 127.0.0.1
www IN A 192.0.2.10
)";

// Records every POST body on 127.0.0.1 (kernel-chosen port).
class WebhookListener {
 public:
  WebhookListener() {
    server_.Post("/hook", [this](const httplib::Request& request, httplib::Response& response) {
      std::lock_guard lock(mutex_);
      bodies_.push_back(request.body);
      response.status = 204;
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~WebhookListener() {
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }
  std::vector<std::string> bodies() {
    std::lock_guard lock(mutex_);
    return bodies_;
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::string> bodies_;
};

std::string get(int port, const std::string& path) {
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(2);
  client.set_read_timeout(5);
  auto result = client.Get(path);
  return result && result->status == 200 ? result->body : "";
}

// The value of the sample whose line starts with `series` ("name{labels}"), or -1.
double sample(const std::string& metrics, const std::string& series) {
  std::size_t at = metrics.find("\n" + series + " ");
  if (at == std::string::npos) return -1;
  return std::stod(metrics.substr(at + series.size() + 2));
}

int port_in_log(const std::string& log, const std::string& pattern_text) {
  std::smatch match;
  std::regex pattern(pattern_text);
  return std::regex_search(log, match, pattern) ? std::stoi(match[1]) : 0;
}

TEST(Monitor, SeesAWriteSplitTheAuthoritativesAndTheResolverAndPostsTheAlert) {
  const auto started = std::chrono::steady_clock::now();
  std::string dir = make_temp_dir("cutover-monitor");
  write_file(dir + "/zone.db", kZone);
  write_file(dir + "/new.yaml", "control:\n  listen: 127.0.0.1:0\nwrites:\n  journal: journal.db\n"
                                "zones:\n  - origin: example.test\n    file: zone.db\n");
  CutoverServer writable(ServerSpec{.config = dir + "/new.yaml"});
  ASSERT_TRUE(writable.wait_for_log("control.listen"));
  int control_port = writable.control_port();
  ASSERT_NE(control_port, 0);
  CutoverServer old_copy(ServerSpec{.zones = {{"example.test.", dir + "/zone.db"}}});

  std::uint16_t unbound_port = free_port();
  auto unbound = start_unbound(dir, unbound_port,
                               "  local-zone: \"test.\" nodefault\nstub-zone:\n  name: \"example.test.\"\n"
                               "  stub-addr: 127.0.0.1@" + std::to_string(writable.port()) + "\n");
  WebhookListener webhook;

  const std::string writable_addr = "127.0.0.1:" + std::to_string(writable.port());
  const std::string old_addr = "127.0.0.1:" + std::to_string(old_copy.port());
  const std::string resolver_addr = "127.0.0.1:" + std::to_string(unbound_port);
  write_file(dir + "/monitor.yaml",
             "interval: 300ms\ntimeout: 500ms\ntries: 1\nmetrics: 127.0.0.1:0\n"
             "authoritatives: [\"" + writable_addr + "\", \"" + old_addr + "\"]\n"
             "resolvers: [\"" + resolver_addr + "\"]\n"
             "watch:\n  - name: www.example.test\n    type: A\n"
             "alerts:\n  mismatch: {for: 0s}\n"
             "webhook:\n  url: http://127.0.0.1:" + std::to_string(webhook.port()) + "/hook\n"
             "  retries: 2\n  backoff: 100ms\n");

  // One round before the change: everyone agrees, exit 0, JSON on stdout.
  CommandResult once = run_cutover({"monitor", "--config", dir + "/monitor.yaml", "--once", "--json"});
  ASSERT_EQ(once.exit_code, 0) << once.out << once.err;
  json first = json::parse(once.out);
  EXPECT_EQ(first["all_agree"], true);
  EXPECT_EQ(first["watches"][0]["sources"].size(), 3U);

  ChildProcess monitor({CUTOVER_BINARY, "monitor", "--config", dir + "/monitor.yaml"}, dir + "/monitor.log");
  int metrics_port = 0;
  ASSERT_TRUE(eventually([&] {
    metrics_port = port_in_log(monitor.log(), R"(monitor.listen address=127.0.0.1:(\d+))");
    return metrics_port != 0;
  })) << monitor.log();
  const std::string www = R"({name="www.example.test.",type="A")";
  std::string metrics;
  ASSERT_TRUE(eventually([&] {
    metrics = get(metrics_port, "/metrics");
    return sample(metrics, "cutover_monitor_rounds_total") >= 1;
  })) << monitor.log();
  EXPECT_EQ(sample(metrics, "cutover_monitor_agree" + www + "}"), 1) << metrics;
  EXPECT_EQ(sample(metrics, "cutover_monitor_resolver_match" + www + ",resolver=\"" + resolver_addr + "\"}"), 1);
  EXPECT_EQ(sample(metrics, "cutover_monitor_authoritative_serial" + www + ",server=\"" + writable_addr + "\"}"), 10);
  EXPECT_EQ(sample(metrics, "cutover_monitor_authoritative_up" + www + ",server=\"" + old_addr + "\"}"), 1);
  double ttl = sample(metrics, "cutover_monitor_resolver_ttl_seconds" + www + ",resolver=\"" + resolver_addr + "\"}");
  EXPECT_GT(ttl, 250);
  EXPECT_LE(ttl, 300);

  // The change, through the write API of one authoritative only.
  httplib::Client api("127.0.0.1", control_port);
  json edit = {{"edits", json::array({{{"op", "set"}, {"name", "www"}, {"type", "A"}, {"ttl", 300},
                                       {"data", json::array({"192.0.2.99"})}}})}};
  auto written = api.Post("/zones/example.test/records", edit.dump(), "application/json");
  ASSERT_TRUE(written);
  ASSERT_EQ(written->status, 200) << written->body;

  ASSERT_TRUE(eventually([&] {
    metrics = get(metrics_port, "/metrics");
    return sample(metrics, "cutover_monitor_agree" + www + "}") == 0;
  })) << metrics;
  EXPECT_EQ(sample(metrics, "cutover_monitor_authoritatives_agree" + www + "}"), 0);
  EXPECT_GT(sample(metrics, "cutover_monitor_authoritative_serial" + www + ",server=\"" + writable_addr + "\"}"), 10);
  EXPECT_EQ(sample(metrics, "cutover_monitor_authoritative_serial" + www + ",server=\"" + old_addr + "\"}"), 10);
  // Unbound still holds the old answer from its cache (TTL 300).
  EXPECT_EQ(sample(metrics, "cutover_monitor_resolver_match" + www + ",resolver=\"" + resolver_addr + "\"}"), 0);
  EXPECT_EQ(sample(metrics, R"(cutover_monitor_alert_firing{rule="mismatch",subject="www.example.test. A"})"), 1);

  ASSERT_TRUE(eventually([&] { return !webhook.bodies().empty(); })) << monitor.log();
  json alert = json::parse(webhook.bodies().front());
  EXPECT_EQ(alert["rule"], "mismatch");
  EXPECT_EQ(alert["state"], "firing");
  EXPECT_EQ(alert["subject"], "www.example.test. A");
  EXPECT_NE(alert["message"].get<std::string>().find(old_addr), std::string::npos) << alert.dump();
  EXPECT_EQ(webhook.bodies().size(), 1U);  // once per transition, not once per round
  EXPECT_TRUE(eventually([&] { return monitor.log().find("monitor.alert state=firing rule=mismatch") != std::string::npos; }))
      << monitor.log();
  EXPECT_EQ(count_occurrences(monitor.log(), "monitor.alert state=firing rule=mismatch"), 1U) << monitor.log();

  json status = json::parse(get(metrics_port, "/status"));
  EXPECT_EQ(status["all_agree"], false);
  EXPECT_EQ(status["alerts"][0]["state"], "firing");

  // --once now finds the mismatch: exit 1.
  CommandResult after = run_cutover({"monitor", "--config", dir + "/monitor.yaml", "--once"});
  EXPECT_EQ(after.exit_code, 1) << after.out << after.err;
  EXPECT_NE(after.out.find("www.example.test. A: MISMATCH: the sources differ"), std::string::npos) << after.out;

  EXPECT_EQ(monitor.stop(), 0) << monitor.log();
  std::printf("monitor integration test took %.1f s\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
}

// Without listed authoritatives the monitor asks the zone's NS set, found through the
// resolver (the sweep's discovery): ns1.example.test. is 127.0.0.1, on auth-port.
TEST(Monitor, FindsTheAuthoritativesThroughTheNsSet) {
  std::string dir = make_temp_dir("cutover-monitor-ns");
  write_file(dir + "/zone.db", kZone);
  CutoverServer server(ServerSpec{.zones = {{"example.test.", dir + "/zone.db"}}});
  std::uint16_t unbound_port = free_port();
  auto unbound = start_unbound(dir, unbound_port,
                               "  local-zone: \"test.\" nodefault\nstub-zone:\n  name: \"example.test.\"\n"
                               "  stub-addr: 127.0.0.1@" + std::to_string(server.port()) + "\n");
  write_file(dir + "/monitor.yaml", "timeout: 500ms\ntries: 1\nauth-port: " + std::to_string(server.port()) +
                                        "\nresolvers: [\"127.0.0.1:" + std::to_string(unbound_port) + "\"]\n"
                                        "watch:\n  - name: www.example.test\n    expect: 192.0.2.10\n");
  CommandResult run = run_cutover({"monitor", "--config", dir + "/monitor.yaml", "--once", "--json"});
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  json status = json::parse(run.out);
  ASSERT_EQ(status["watches"][0]["sources"].size(), 2U) << run.out;
  EXPECT_EQ(status["watches"][0]["sources"][0]["role"], "authoritative");
  EXPECT_EQ(status["watches"][0]["sources"][0]["server"], "127.0.0.1:" + std::to_string(server.port()));
  EXPECT_EQ(status["watches"][0]["expected_matches"], true);
}

TEST(Monitor, BadConfigExitsTwoWithFileLineColumn) {
  std::string dir = make_temp_dir("cutover-monitor-bad");
  write_file(dir + "/monitor.yaml", "resolvers: [127.0.0.1]\nwatch:\n  - name: www.example.test\n    tpye: A\n");
  CommandResult run = run_cutover({"monitor", "--config", dir + "/monitor.yaml", "--once"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("monitor.yaml:4:5: watch[0].tpye: unknown key"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace cutover::testing
