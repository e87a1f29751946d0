// The web console of the real `cutover serve` over HTTP: the page, the panels it is drawn
// from (pools, zones with the journal's writes, replication), the event stream, and the
// token rule (reading open on loopback, every action refused without control.token).
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "pools/pool_fixture.h"

namespace cutover::testing {
namespace {

constexpr const char* kToken = "console-s3cret";

struct ConsoleServer {
  PoolDir dir;
  // Two endpoints: the pool floor refuses to drain the last one (docs/pools.md).
  HttpEndpoint endpoint{"127.0.0.31"};
  HttpEndpoint backup{"127.0.0.32"};
  std::unique_ptr<PoolServer> server;

  ConsoleServer() {
    write_file(dir.config_path,
               fmt::format("control: {{listen: \"127.0.0.1:0\", token: {}}}\n"
                           "writes: {{journal: {}/journal.db}}\n"
                           "zones:\n  - origin: {}\n    file: pool.db\n    allow-transfer: [127.0.0.1]\n"
                           "pools:\n  web:\n    name: www.{}\n    shape: failover\n    check: {}\n    endpoints:\n{}",
                           kToken, dir.dir, kPoolZone, kPoolZone, kFastHttpCheck,
                           endpoint_yaml(endpoint) + endpoint_yaml(backup)));
    server = std::make_unique<PoolServer>(dir);
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

}  // namespace
}  // namespace cutover::testing
