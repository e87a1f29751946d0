// The console over real loopback HTTP: its files, the token rules it relies on, the panels'
// reading and the Server-Sent Events stream (a changed panel arrives as an event).
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "control/console/assets.h"
#include "control/console/console.h"

namespace cutover::control {
namespace {

using namespace std::chrono_literals;

// A console with one panel whose document is {"value": N}, N set by the test.
struct ConsoleFixture {
  explicit ConsoleFixture(ControlOptions options = {}, std::size_t max_streams = 4) : server(std::move(options)) {
    ConsoleOptions console_options;
    console_options.title = "test console";
    console_options.poll = 20ms;
    console_options.max_streams = max_streams;
    console_options.demo_endpoints = {"127.0.0.11"};
    Console console(console_options);
    console.add_panel("counter", [this] {
      return PanelReading{nlohmann::json{{"value", value.load()}}.dump(), std::nullopt};
    });
    console.add_panel("broken", []() -> PanelReading { throw std::runtime_error("source failed"); });
    // A feed of numbered entries: everything after the cursor, as a JSON array.
    console.add_feed("ticks", [this](std::uint64_t after) {
      std::lock_guard lock(ticks_mutex);
      nlohmann::json fresh = nlohmann::json::array();
      for (std::uint64_t i = after; i < ticks.size(); ++i) fresh.push_back(ticks[i]);
      return FeedReading{fresh.empty() ? std::string() : fresh.dump(), ticks.size()};
    });
    console.mount(server);
    server.post("/act", [](const httplib::Request&, httplib::Response& response) { reply_json(response, 200, "{}"); });
    EXPECT_TRUE(server.start().ok());
  }
  httplib::Client client() const {
    httplib::Client out("127.0.0.1", server.port());
    out.set_read_timeout(10, 0);
    return out;
  }

  void add_tick(int tick) {
    std::lock_guard lock(ticks_mutex);
    ticks.push_back(tick);
  }

  std::atomic<int> value{1};
  std::mutex ticks_mutex;
  std::vector<int> ticks{10, 20};
  ControlServer server;
};

TEST(Console, ServesThePageAndItsFilesFromTheBinary) {
  ConsoleFixture fixture;
  auto client = fixture.client();
  auto page = client.Get("/");
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 200);
  EXPECT_EQ(page->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(page->body.find("<script src=\"/console/app.js\"></script>"), std::string::npos);
  auto script = client.Get("/console/app.js");
  ASSERT_TRUE(script);
  EXPECT_EQ(script->status, 200);
  EXPECT_EQ(script->get_header_value("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_NE(script->body.find("/events"), std::string::npos);
  EXPECT_EQ(client.Get("/console/style.css")->get_header_value("Content-Type"), "text/css; charset=utf-8");
  EXPECT_EQ(client.Get("/console/missing.js")->status, 404);
  // The bytes served are the embedded files whole (the generator loses nothing).
  for (const auto& asset : console_assets()) {
    std::string path = asset.name == "index.html" ? "/" : "/console/" + std::string(asset.name);
    EXPECT_EQ(client.Get(path)->body, asset.body) << path;
  }
}

TEST(Console, PanelsReadingCarriesEachPanelWithItsAge) {
  ConsoleFixture fixture;
  auto reply = fixture.client().Get("/console/panels");
  ASSERT_TRUE(reply);
  ASSERT_EQ(reply->status, 200);
  auto doc = nlohmann::json::parse(reply->body);
  EXPECT_EQ(doc["title"], "test console");
  EXPECT_EQ(doc["poll_ms"], 20);
  EXPECT_EQ(doc["demo_endpoints"], nlohmann::json::array({"127.0.0.11"}));
  EXPECT_EQ(doc["panels"]["counter"]["data"]["value"], 1);
  EXPECT_GT(doc["panels"]["counter"]["as_of_ms"].get<std::int64_t>(), 0);
  EXPECT_LE(doc["panels"]["counter"]["as_of_ms"].get<std::int64_t>(), doc["server_ms"].get<std::int64_t>());
  // A source that throws shows its error in its own panel only.
  EXPECT_EQ(doc["panels"]["broken"]["data"]["error"], "source failed");
}

// Regression: server_ms was taken before the panels were read, so a panel read later (here,
// after a slow one) was stamped after the server's time and its age came out negative.
TEST(Console, ServerTimeIsTakenAfterEveryPanelIsRead) {
  Console console(ConsoleOptions{});
  console.add_panel("slow", [] {
    std::this_thread::sleep_for(5ms);
    return PanelReading{"{}", std::nullopt};
  });
  console.add_panel("after", [] { return PanelReading{"{}", std::nullopt}; });
  auto doc = nlohmann::json::parse(console.snapshot_json());
  EXPECT_LE(doc["panels"]["after"]["as_of_ms"].get<std::int64_t>(), doc["server_ms"].get<std::int64_t>());
  EXPECT_LE(doc["panels"]["slow"]["as_of_ms"].get<std::int64_t>(), doc["server_ms"].get<std::int64_t>());
}

TEST(Console, PageIsPublicButDataAndActionsNeedTheTokenWhenReadsAreClosed) {
  ControlOptions options;
  options.bearer_token = "s3cret";
  ConsoleFixture fixture(options);
  auto client = fixture.client();
  EXPECT_EQ(client.Get("/")->status, 200);
  EXPECT_EQ(client.Get("/console/app.js")->status, 200);
  EXPECT_EQ(client.Get("/console/panels")->status, 401);
  EXPECT_EQ(client.Get("/events")->status, 401);
  EXPECT_EQ(client.Post("/act", "", "application/json")->status, 401);
  // A public path is public for reading only.
  EXPECT_EQ(client.Post("/", "", "text/plain")->status, 401);
  httplib::Headers bearer{{"Authorization", "Bearer s3cret"}};
  EXPECT_EQ(client.Get("/console/panels", bearer)->status, 200);
  EXPECT_EQ(client.Post("/act", bearer, "", "application/json")->status, 200);
}

TEST(Console, OpenLoopbackReadsLetThePageReadButNotAct) {
  ControlOptions options;
  options.bearer_token = "s3cret";
  options.open_loopback_reads = true;
  ConsoleFixture fixture(options);
  auto client = fixture.client();
  EXPECT_EQ(client.Get("/console/panels")->status, 200);
  EXPECT_EQ(client.Post("/act", "", "application/json")->status, 401);
  EXPECT_EQ(client.Post("/act", {{"Authorization", "Bearer wrong"}}, "", "application/json")->status, 401);
  EXPECT_EQ(client.Post("/act", {{"Authorization", "Bearer s3cret"}}, "", "application/json")->status, 200);
}

// Reads /events until `done` says the text so far is enough (or 200 chunks), then hangs up.
std::string read_events(httplib::Client& client, const std::function<bool(const std::string&)>& done,
                        const std::function<void()>& after_first = {}) {
  std::string text;
  int chunks = 0;
  bool first = true;
  client.Get("/events", [&](const char* data, std::size_t length) {
    text.append(data, length);
    if (first && after_first) after_first();
    first = false;
    return !done(text) && ++chunks < 200;
  });
  return text;
}

TEST(Console, EventsStreamSendsHelloThenAChangedPanel) {
  ConsoleFixture fixture;
  auto client = fixture.client();
  std::string text = read_events(
      client, [](const std::string& so_far) { return so_far.find("event: panel\n") != std::string::npos &&
                                                     so_far.find("\n\n", so_far.find("event: panel\n")) != std::string::npos; },
      [&fixture] { fixture.value = 2; });
  ASSERT_EQ(text.rfind("retry: 2000\n\nevent: hello\ndata: {", 0), 0u) << text;
  auto hello_start = text.find("event: hello\ndata: ") + std::string("event: hello\ndata: ").size();
  auto hello = nlohmann::json::parse(text.substr(hello_start, text.find('\n', hello_start) - hello_start));
  EXPECT_EQ(hello["panels"]["counter"]["data"]["value"], 1);
  auto panel_start = text.find("event: panel\ndata: ") + std::string("event: panel\ndata: ").size();
  auto panel = nlohmann::json::parse(text.substr(panel_start, text.find('\n', panel_start) - panel_start));
  EXPECT_EQ(panel["id"], "counter");
  EXPECT_EQ(panel["data"]["value"], 2);
  // Unchanged panels are not sent again, only confirmed in "fresh".
  EXPECT_EQ(text.find("\"id\":\"broken\""), std::string::npos);
}

TEST(Console, AFeedIsSentWholeOnceThenOnlyItsNewEntries) {
  ConsoleFixture fixture;
  auto client = fixture.client();
  auto panels = client.Get("/console/panels");
  ASSERT_TRUE(panels);
  EXPECT_EQ(nlohmann::json::parse(panels->body)["feeds"]["ticks"], nlohmann::json({10, 20}));
  // One entry is added after the first event; the stream is read until four polls after
  // the one that sent it, which must not send it (or the first two) again.
  std::string text = read_events(
      client,
      [&](const std::string& so_far) {
        auto at = so_far.find("event: feed\n");
        if (at == std::string::npos) return false;
        int polls = 0;
        for (auto f = so_far.find("event: fresh\n", at); f != std::string::npos; f = so_far.find("event: fresh\n", f + 1)) {
          if (so_far.find("\n\n", f) != std::string::npos) ++polls;
        }
        return polls >= 4;
      },
      [&fixture] { fixture.add_tick(30); });
  auto hello_start = text.find("event: hello\ndata: ") + std::string("event: hello\ndata: ").size();
  auto hello = nlohmann::json::parse(text.substr(hello_start, text.find('\n', hello_start) - hello_start));
  EXPECT_EQ(hello["feeds"]["ticks"], nlohmann::json({10, 20}));
  auto feed_start = text.find("event: feed\ndata: ") + std::string("event: feed\ndata: ").size();
  auto feed = nlohmann::json::parse(text.substr(feed_start, text.find('\n', feed_start) - feed_start));
  EXPECT_EQ(feed["id"], "ticks");
  EXPECT_EQ(feed["data"], nlohmann::json({30}));  // only the new one
  EXPECT_EQ(text.find("event: feed\n"), text.rfind("event: feed\n")) << text;
}

TEST(Console, EventsStreamConfirmsUnchangedPanelsAsFresh) {
  ConsoleFixture fixture;
  auto client = fixture.client();
  std::string text = read_events(client, [](const std::string& so_far) {
    auto at = so_far.find("event: fresh\ndata: ");
    return at != std::string::npos && so_far.find("\n\n", at) != std::string::npos;
  });
  auto start = text.find("event: fresh\ndata: ") + std::string("event: fresh\ndata: ").size();
  auto fresh = nlohmann::json::parse(text.substr(start, text.find('\n', start) - start));
  EXPECT_TRUE(fresh["as_of_ms"].contains("counter"));
  EXPECT_TRUE(fresh["as_of_ms"].contains("broken"));
  EXPECT_EQ(text.find("event: panel\n"), std::string::npos) << text;
}

TEST(Console, StreamsBeyondTheLimitGet503AndStopEndsTheOpenOne) {
  auto fixture = std::make_unique<ConsoleFixture>(ControlOptions{}, 1);
  std::mutex mutex;
  std::condition_variable changed;
  bool streaming = false;
  std::thread reader([&] {
    auto client = fixture->client();
    client.Get("/events", [&](const char*, std::size_t) {
      {
        std::lock_guard lock(mutex);
        streaming = true;
      }
      changed.notify_all();
      return true;  // keeps reading until the server ends the stream
    });
  });
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(changed.wait_for(lock, 10s, [&] { return streaming; }));
  }
  auto second = fixture->client().Get("/events");
  ASSERT_TRUE(second);
  EXPECT_EQ(second->status, 503);
  EXPECT_EQ(second->get_header_value("Retry-After"), "5");
  // stop() returns only once the open stream has ended; the reader then sees the end.
  fixture->server.stop();
  reader.join();
}

TEST(Console, FormatEventSplitsLinesIntoDataFields) {
  EXPECT_EQ(format_event("panel", "{}"), "event: panel\ndata: {}\n\n");
  EXPECT_EQ(format_event("x", "a\nb"), "event: x\ndata: a\ndata: b\n\n");
}

}  // namespace
}  // namespace cutover::control
