// The web console of the real `cutover serve` over HTTP: the page, the panels it is drawn
// from (pools, zones with the journal's writes, replication), the event stream, and the
// token rule (reading open on loopback, every action refused without control.token).
#include <gtest/gtest.h>

#include <thread>

#include <fmt/format.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "pools/pool_fixture.h"
#include "support/process.h"

namespace cutover::testing {
namespace {

constexpr const char* kToken = "console-s3cret";

struct ConsoleServer {
  PoolDir dir;
  // Two endpoints: the pool floor refuses to drain the last one (docs/pools.md).
  HttpEndpoint endpoint{"127.0.0.31"};
  HttpEndpoint backup{"127.0.0.32"};
  std::unique_ptr<PoolServer> server;

  explicit ConsoleServer(std::vector<std::string> extra_args = {}) {
    write_file(dir.config_path,
               fmt::format("control: {{listen: \"127.0.0.1:0\", token: {}}}\n"
                           "writes: {{journal: {}/journal.db}}\n"
                           "zones:\n  - origin: {}\n    file: pool.db\n    allow-transfer: [127.0.0.1]\n"
                           "pools:\n  web:\n    name: www.{}\n    shape: failover\n    check: {}\n    endpoints:\n{}",
                           kToken, dir.dir, kPoolZone, kPoolZone, kFastHttpCheck,
                           endpoint_yaml(endpoint) + endpoint_yaml(backup)));
    server = std::make_unique<PoolServer>(dir, 0, std::move(extra_args));
  }
  httplib::Client client() const {
    httplib::Client out("127.0.0.1", server->control_port());
    out.set_read_timeout(10, 0);
    return out;
  }
  nlohmann::json panels() const {
    auto reply = client().Get("/console/panels");
    if (!reply || reply->status != 200) return nullptr;
    return nlohmann::json::parse(reply->body);
  }
};

TEST(ConsoleServe, ServesThePageAndReadsWithoutTheTokenOnLoopback) {
  ConsoleServer fixture;
  auto client = fixture.client();
  auto page = client.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("/console/app.js"), std::string::npos);
  ASSERT_TRUE(fixture.server->wait_for_status("\"state\": \"up\""));
  nlohmann::json doc = fixture.panels();
  ASSERT_FALSE(doc.is_null());
  EXPECT_EQ(doc["title"], "cutover serve");
  EXPECT_TRUE(doc["demo_endpoints"].empty());  // a config file: no demo endpoints
  const auto& pool = doc["panels"]["pools"]["data"]["pools"][0];
  EXPECT_EQ(pool["name"], "web");
  EXPECT_EQ(pool["endpoints"][0]["address"], "127.0.0.31");
  const auto& zone = doc["panels"]["zones"]["data"]["zones"][0];
  EXPECT_EQ(zone["zone"], kPoolZone);
  EXPECT_EQ(zone["serial"], 1);
  EXPECT_TRUE(zone["undo"].get<bool>());
  const auto& replicated = doc["panels"]["replication"]["data"]["zones"][0];
  EXPECT_EQ(replicated["role"], "primary");
  EXPECT_EQ(replicated["allow_transfer"], nlohmann::json::array({"127.0.0.1/32"}));
}

TEST(ConsoleServe, ActionsAreRefusedWithoutTheToken) {
  ConsoleServer fixture;
  auto client = fixture.client();
  std::string drain = "/pools/web/endpoints/127.0.0.31/drain";
  std::string write = fmt::format("/zones/{}/records", kPoolZone);
  std::string edit = R"({"edits":[{"op":"set","name":"new","type":"A","ttl":60,"data":["192.0.2.7"]}]})";
  EXPECT_EQ(client.Post(drain, "", "application/json")->status, 401);
  EXPECT_EQ(client.Post(drain, {{"Authorization", "Bearer wrong"}}, "", "application/json")->status, 401);
  EXPECT_EQ(client.Post(write, edit, "application/json")->status, 401);
  EXPECT_EQ(client.Post(fmt::format("/zones/{}/undo", kPoolZone), R"({"to":0})", "application/json")->status, 401);
  // Nothing changed: no override, no write.
  nlohmann::json before = fixture.panels();
  EXPECT_EQ(before["panels"]["pools"]["data"]["pools"][0]["endpoints"][0]["override"], "none");
  EXPECT_TRUE(before["panels"]["zones"]["data"]["zones"][0]["writes"].empty());

  httplib::Headers bearer{{"Authorization", std::string("Bearer ") + kToken}};
  auto drained = client.Post(drain, bearer, "", "application/json");
  ASSERT_TRUE(drained);
  EXPECT_EQ(drained->status, 200) << drained->body;
  auto written = client.Post(write, bearer, edit, "application/json");
  ASSERT_TRUE(written);
  EXPECT_EQ(written->status, 200) << written->body;
  nlohmann::json after = fixture.panels();
  EXPECT_EQ(after["panels"]["pools"]["data"]["pools"][0]["endpoints"][0]["override"], "drain");
  const auto& writes = after["panels"]["zones"]["data"]["zones"][0]["writes"];
  ASSERT_FALSE(writes.empty());
  EXPECT_EQ(writes[0]["serial"], 2);
}

TEST(ConsoleServe, EventsStreamCarriesAnOverrideAsAPanelEvent) {
  ConsoleServer fixture;
  auto client = fixture.client();
  std::string text;
  bool drained = false;
  int chunks = 0;
  // Reads the stream: after the first chunk (hello) drains the endpoint through the API on
  // another connection, then waits for a pools event that shows it (at most 200 chunks, one
  // per second at most: the stream's poll).
  client.Get("/events", [&](const char* data, std::size_t length) {
    text.append(data, length);
    if (!drained) {
      drained = true;
      auto other = fixture.client();
      auto reply = other.Post("/pools/web/endpoints/127.0.0.31/drain",
                              {{"Authorization", std::string("Bearer ") + kToken}}, "", "application/json");
      EXPECT_TRUE(reply && reply->status == 200) << (reply ? reply->body : std::string("no reply"));
    }
    auto at = text.rfind("event: panel\ndata: {\"id\":\"pools\"");
    bool seen = at != std::string::npos && text.find("\n\n", at) != std::string::npos &&
                text.substr(at, text.find("\n\n", at) - at).find("\"override\": \"drain\"") != std::string::npos;
    return !seen && ++chunks < 200;
  });
  EXPECT_EQ(text.rfind("retry: 2000\n\nevent: hello\n", 0), 0u) << text.substr(0, 200);
  auto at = text.rfind("event: panel\ndata: {\"id\":\"pools\"");
  ASSERT_NE(at, std::string::npos) << text.substr(0, 400);
  EXPECT_NE(text.find("\"override\": \"drain\"", at), std::string::npos);
}

// The ticks the probe feed holds for one endpoint ([[UNIX_MS, RESULT, LATENCY_MS, CHECK]...]).
nlohmann::json ticks_of(const nlohmann::json& feed, const std::string& address) {
  if (feed.is_null()) return nlohmann::json::array();
  for (const auto& endpoint : feed["endpoints"]) {
    if (endpoint["address"] == address) return endpoint["ticks"];
  }
  return nlohmann::json::array();
}

// The data of the event starting at `at` in an event stream: its "data: " lines joined with
// line breaks, up to the blank line that ends it (WHATWG HTML §9.2.6).
std::string event_data(const std::string& text, std::size_t at) {
  std::string data;
  std::size_t end = text.find("\n\n", at);
  for (std::size_t line = at; line < end;) {
    std::size_t next = text.find('\n', line);
    if (next == std::string::npos || next > end) next = end;
    if (text.compare(line, 6, "data: ") == 0) data += (data.empty() ? "" : "\n") + text.substr(line + 6, next - line - 6);
    line = next + 1;
  }
  return data;
}

TEST(ConsoleServe, APageOpenedLaterGetsTheProbesTheServerKeptThenOnlyNewOnes) {
  ConsoleServer fixture;
  ASSERT_TRUE(fixture.server->wait_for_status("\"state\": \"up\""));
  // The probes run every 200 ms; wait (at most 10 s) until the server kept a few of them.
  std::size_t kept = 0;
  for (int i = 0; i < 100 && kept < 5; ++i) {
    kept = ticks_of(fixture.panels()["feeds"]["probes"], "127.0.0.31").size();
    if (kept < 5) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_GE(kept, 5u);
  nlohmann::json doc = fixture.panels();
  const auto& endpoint = doc["panels"]["pools"]["data"]["pools"][0]["endpoints"][0];
  EXPECT_GE(endpoint["probe_history"]["kept"].get<std::size_t>(), kept);
  EXPECT_EQ(endpoint["probe_history"]["capacity"], 3600);  // 200 ms: an hour would be 18001, capped
  // One vantage today, this server's own probes.
  ASSERT_EQ(endpoint["vantages"].size(), 1u);
  EXPECT_EQ(endpoint["vantages"][0]["name"], "local");
  EXPECT_EQ(endpoint["vantages"][0]["state"], "up");

  // A stream opened now starts with all of them, then sends only probes newer than its last.
  auto client = fixture.client();
  std::string text;
  int feeds = 0;
  int chunks = 0;
  client.Get("/events", [&](const char* data, std::size_t length) {
    text.append(data, length);
    feeds = 0;
    for (auto at = text.find("event: feed\n"); at != std::string::npos; at = text.find("event: feed\n", at + 1)) {
      if (text.find("\n\n", at) != std::string::npos) ++feeds;
    }
    return feeds < 2 && ++chunks < 200;
  });
  auto hello = nlohmann::json::parse(event_data(text, text.find("event: hello\n")));
  nlohmann::json first = ticks_of(hello["feeds"]["probes"], "127.0.0.31");
  ASSERT_GE(first.size(), kept);
  EXPECT_EQ(first.back()[1], "pass");
  EXPECT_GE(first.back()[2].get<double>(), 0.0);
  ASSERT_EQ(feeds, 2) << text.substr(0, 400);
  double last = first.back()[0].get<double>();
  std::size_t sent = 0;
  for (auto at = text.find("event: feed\ndata: "); at != std::string::npos; at = text.find("event: feed\ndata: ", at + 1)) {
    auto feed = nlohmann::json::parse(event_data(text, at));
    EXPECT_EQ(feed["id"], "probes");
    for (const auto& tick : ticks_of(feed["data"], "127.0.0.31")) {
      EXPECT_GE(tick[0].get<double>(), last);  // nothing of the hour already sent
      last = tick[0].get<double>();
      ++sent;
    }
  }
  EXPECT_LT(sent, first.size() + 20);  // a poll's worth of probes per event, not the hour again
}

TEST(ConsoleServe, WithoutLabResultsThePoolsPanelSaysNoLabRunWasGiven) {
  ConsoleServer fixture;
  nlohmann::json doc = fixture.panels();
  const auto& terms = doc["panels"]["pools"]["data"]["pools"][0]["client_terms"];
  EXPECT_TRUE(terms["lab_run"].is_null());
  EXPECT_TRUE(terms["clients"].empty());
}

TEST(ConsoleServe, LabResultsPutEachLabClientsCAndRBesideDAndK) {
  const std::string results = std::string(CUTOVER_SOURCE_DIR) + "/tests/fixtures/lab-clients-results.json";
  ConsoleServer fixture({"--lab-results", results});
  nlohmann::json doc = fixture.panels();
  const auto& pool = doc["panels"]["pools"]["data"]["pools"][0];
  const auto& terms = pool["client_terms"];
  ASSERT_TRUE(terms["lab_run"].is_string()) << terms.dump();
  EXPECT_NE(terms["lab_run"].get<std::string>().find(results), std::string::npos);
  ASSERT_EQ(terms["clients"].size(), 2u);
  // The same reader as calc's: the panel's C and R are what calc --lab-results reads.
  double worst = 0;
  for (const auto& client : terms["clients"]) {
    std::string id = client["id"].get<std::string>();
    CommandResult calc = run_command({CUTOVER_BINARY, "calc", "--interval", "10", "--fall", "3", "--timeout", "2",
                                      "--ttl", "60", "--client", id, "--lab-results", results, "--json"},
                                     std::chrono::seconds(20));
    ASSERT_EQ(calc.exit_code, 0) << calc.err;
    auto inputs = nlohmann::json::parse(calc.out)["inputs"];
    EXPECT_DOUBLE_EQ(client["c_s"].get<double>(), inputs["client_cache"].get<double>()) << id;
    double d_plus_k = pool["detection"]["worst_d_plus_k_ms"].get<double>();
    double r = client["r_measured"].get<bool>() ? client["r_s"].get<double>() : 0.0;
    if (client["r_measured"].get<bool>()) {
      EXPECT_DOUBLE_EQ(r, inputs["connection_reuse"].get<double>()) << id;
    }
    EXPECT_DOUBLE_EQ(client["worst_d_plus_k_plus_c_plus_r_ms"].get<double>(),
                     d_plus_k + (client["c_s"].get<double>() + r) * 1000.0) << id;
    worst = std::max(worst, client["worst_d_plus_k_plus_c_plus_r_ms"].get<double>());
  }
  EXPECT_NEAR(terms["clients"][1]["c_s"].get<double>(), 30.48, 1e-9);  // java: 3.75 s + 26.73 s
  EXPECT_NEAR(terms["clients"][1]["r_s"].get<double>(), 1.27, 1e-9);   // E11 28.0 s against E6 26.73 s
  EXPECT_FALSE(terms["clients"][0]["r_measured"].get<bool>());         // python: no E11 case
  EXPECT_DOUBLE_EQ(terms["worst_d_plus_k_plus_c_plus_r_ms"].get<double>(), worst);
}

TEST(ConsoleServe, AnUnreadableLabResultsFileIsExitTwoNamingIt) {
  std::string dir = make_temp_dir("console-lab");
  write_file(dir + "/results.json", "{\"cases\": [ not json");
  CommandResult run = run_command({CUTOVER_BINARY, "serve", "--check", "--lab-results", dir + "/results.json"},
                                  std::chrono::seconds(20));
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find(dir + "/results.json"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace cutover::testing
