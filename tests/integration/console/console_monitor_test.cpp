// The web console of the real `cutover monitor`: the page on its metrics port, and its one
// panel, the last round, stamped with when that round ended (not when it was read), so the
// page ages the monitor's data from its measurement.
#include <httplib.h>

#include <chrono>
#include <cmath>
#include <regex>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"
#include "support/server.h"

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

// Polls `done` every 100 ms for up to 10 s.
template <typename Done>
bool eventually(Done done) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

TEST(ConsoleMonitor, ServesThePageAndTheLastRoundAgedFromItsEnd) {
  std::string dir = make_temp_dir("cutover-console-monitor");
  write_file(dir + "/zone.db", kZone);
  CutoverServer server(ServerSpec{.zones = {{"example.test.", dir + "/zone.db"}}});
  write_file(dir + "/monitor.yaml", "interval: 300ms\ntimeout: 500ms\ntries: 1\nmetrics: 127.0.0.1:0\n"
                                    "authoritatives: [\"127.0.0.1:" + std::to_string(server.port()) + "\"]\n"
                                    "watch:\n  - name: www.example.test\n    type: A\n");
  ChildProcess monitor({CUTOVER_BINARY, "monitor", "--config", dir + "/monitor.yaml"}, dir + "/monitor.log");
  int port = 0;
  ASSERT_TRUE(eventually([&] {
    std::smatch match;
    std::string log = monitor.log();
    if (std::regex_search(log, match, std::regex(R"(monitor.listen address=127.0.0.1:(\d+))"))) {
      port = std::stoi(match[1]);
    }
    return port != 0;
  })) << monitor.log();
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(5, 0);

  auto page = client.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("/console/app.js"), std::string::npos);

  json doc;
  ASSERT_TRUE(eventually([&] {
    auto reply = client.Get("/console/panels");
    if (!reply || reply->status != 200) return false;
    doc = json::parse(reply->body);
    return doc["panels"]["monitor"]["data"]["rounds"].get<int>() >= 3;
  })) << monitor.log();
  EXPECT_EQ(doc["title"], "cutover monitor");
  const json& panel = doc["panels"]["monitor"];
  EXPECT_EQ(panel["data"]["interval_ms"], 300);
  EXPECT_EQ(panel["data"]["watches"][0]["name"], "www.example.test.");
  EXPECT_EQ(panel["data"]["all_agree"], true);
  // The agreement strip is the monitor's own: every round since it started, not what a page saw.
  const json& history = panel["data"]["watches"][0]["history"];
  ASSERT_EQ(history.size(), panel["data"]["rounds"].get<std::size_t>()) << panel.dump();
  EXPECT_EQ(history.front()["round"], 1);
  EXPECT_EQ(history.back()["agree"], true);
  EXPECT_EQ(history.back()["at_unix"], panel["data"]["last_round_unix"]);
  // The panel's stamp is the round's end, to the millisecond, not the moment of reading.
  double round_ms = panel["data"]["last_round_unix"].get<double>() * 1000;
  EXPECT_LE(std::abs(panel["as_of_ms"].get<double>() - round_ms), 1.0) << panel.dump();
  EXPECT_LE(panel["as_of_ms"].get<std::int64_t>(), doc["server_ms"].get<std::int64_t>());
  // The monitor has no write action; a write from loopback reaches no route.
  auto posted = client.Post("/console/panels", "", "application/json");
  ASSERT_TRUE(posted);
  EXPECT_EQ(posted->status, 404);

  EXPECT_EQ(monitor.stop(), 0) << monitor.log();
}

}  // namespace
}  // namespace cutover::testing
