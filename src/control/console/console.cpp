// The console's routes: static files, the panels' current reading, and the event stream.
#include "control/console/console.h"

#include <atomic>
#include <exception>
#include <utility>

#include <nlohmann/json.hpp>

#include "control/console/assets.h"

namespace cutover::control {

struct Console::Shared {
  ConsoleOptions options;
  std::vector<std::pair<std::string, PanelSource>> panels;
  std::vector<std::pair<std::string, FeedSource>> feeds;
  std::atomic<std::size_t> streams{0};
};

namespace {

std::int64_t unix_ms(std::chrono::system_clock::time_point when) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(when.time_since_epoch()).count();
}

struct Reading {
  std::string json;
  std::int64_t as_of_ms = 0;
};

// A source that throws shows its error in its panel; the stream and the server go on.
Reading read_panel(const PanelSource& source) {
  auto now = std::chrono::system_clock::now();
  try {
    PanelReading reading = source();
    return {std::move(reading.json), unix_ms(reading.measured_at.value_or(now))};
  } catch (const std::exception& e) {
    return {nlohmann::json{{"error", e.what()}}.dump(), unix_ms(now)};
  }
}

// Panel documents are spliced in as they are: each source renders valid JSON.
std::string panel_entry(const Reading& reading) {
  return "{\"as_of_ms\":" + std::to_string(reading.as_of_ms) + ",\"data\":" + reading.json + "}";
}

// A feed's reading after `after`; a source that throws sends nothing this time.
FeedReading read_feed(const FeedSource& source, std::uint64_t after) {
  try {
    return source(after);
  } catch (const std::exception&) {
    return {"", after};
  }
}

std::string snapshot_of(const Console::Shared& shared, std::vector<Reading>* readings,
                        std::vector<std::uint64_t>* cursors) {
  std::string panels;
  for (std::size_t i = 0; i < shared.panels.size(); ++i) {
    Reading reading = read_panel(shared.panels[i].second);
    panels += (i == 0 ? "" : ",") + nlohmann::json(shared.panels[i].first).dump() + ":" + panel_entry(reading);
    if (readings != nullptr) readings->push_back(std::move(reading));
  }
  // The server's time once every panel is read, so no panel is stamped after it (the page
  // counts each panel's age from this clock).
  nlohmann::json head = {{"title", shared.options.title},
                         {"poll_ms", shared.options.poll.count()},
                         {"server_ms", unix_ms(std::chrono::system_clock::now())},
                         {"demo_endpoints", shared.options.demo_endpoints}};
  std::string feeds;
  for (std::size_t i = 0; i < shared.feeds.size(); ++i) {
    FeedReading feed = read_feed(shared.feeds[i].second, 0);
    feeds += (i == 0 ? "" : ",") + nlohmann::json(shared.feeds[i].first).dump() + ":" +
             (feed.json.empty() ? std::string("null") : feed.json);
    if (cursors != nullptr) cursors->push_back(feed.next);
  }
  std::string text = head.dump();
  text.pop_back();  // the closing brace: the panels follow
  return text + ",\"panels\":{" + panels + "},\"feeds\":{" + feeds + "}}";
}

// What one stream has sent: the last document of each panel.
struct StreamState {
  bool started = false;
  std::vector<Reading> sent;
  std::vector<std::uint64_t> cursors;  // per feed, what it has sent
};

// The events of one poll: each changed panel whole, then one "fresh" naming when every
// panel was last confirmed current (changed ones included, so its age starts again).
std::string poll_events(const Console::Shared& shared, StreamState& state) {
  std::string events;
  nlohmann::json as_of = nlohmann::json::object();
  for (std::size_t i = 0; i < shared.panels.size(); ++i) {
    const std::string& id = shared.panels[i].first;
    Reading reading = read_panel(shared.panels[i].second);
    as_of[id] = reading.as_of_ms;
    if (reading.json != state.sent[i].json) {
      events += format_event("panel", "{\"id\":" + nlohmann::json(id).dump() + "," + panel_entry(reading).substr(1));
      state.sent[i] = std::move(reading);
    }
  }
  for (std::size_t i = 0; i < shared.feeds.size(); ++i) {
    FeedReading feed = read_feed(shared.feeds[i].second, state.cursors[i]);
    state.cursors[i] = feed.next;
    if (!feed.json.empty()) {
      events += format_event("feed", "{\"id\":" + nlohmann::json(shared.feeds[i].first).dump() + ",\"data\":" + feed.json + "}");
    }
  }
  nlohmann::json fresh = {{"server_ms", unix_ms(std::chrono::system_clock::now())}, {"as_of_ms", as_of}};
  return events + format_event("fresh", fresh.dump());
}

}  // namespace

Console::Console(ConsoleOptions options) : shared_(std::make_shared<Shared>()) {
  shared_->options = std::move(options);
}

void Console::add_panel(std::string id, PanelSource source) {
  shared_->panels.emplace_back(std::move(id), std::move(source));
}

void Console::add_feed(std::string id, FeedSource source) {
  shared_->feeds.emplace_back(std::move(id), std::move(source));
}

std::string Console::snapshot_json() const { return snapshot_of(*shared_, nullptr, nullptr); }

void Console::mount(ControlServer& http) const {
  for (const ConsoleAsset& asset : console_assets()) {
    std::string path = asset.name == "index.html" ? "/" : "/console/" + std::string(asset.name);
    http.get_public(path, [asset](const httplib::Request&, httplib::Response& response) {
      response.set_content(asset.body.data(), asset.body.size(), std::string(asset.content_type).c_str());
      response.set_header("Cache-Control", "no-cache");
    });
  }
  std::shared_ptr<Shared> shared = shared_;
  http.get("/console/panels", [shared](const httplib::Request&, httplib::Response& response) {
    reply_json(response, 200, snapshot_of(*shared, nullptr, nullptr) + "\n");
  });
  ControlServer* server = &http;
  http.get("/events", [shared, server](const httplib::Request&, httplib::Response& response) {
    // Each stream holds one of the listener's worker threads for as long as it lasts.
    if (shared->streams.fetch_add(1) >= shared->options.max_streams) {
      shared->streams.fetch_sub(1);
      response.set_header("Retry-After", "5");
      reply_json(response, 503, R"({"error":"too many console streams"})" "\n");
      return;
    }
    response.set_header("Cache-Control", "no-cache");
    auto state = std::make_shared<StreamState>();
    response.set_chunked_content_provider(
        "text/event-stream",
        [shared, server, state](std::size_t, httplib::DataSink& sink) {
          std::string events;
          if (!state->started) {
            state->started = true;
            // retry: how long the page waits before it reconnects (HTML §9.2.6).
            events = "retry: 2000\n\n" + format_event("hello", snapshot_of(*shared, &state->sent, &state->cursors));
          } else {
            if (server->wait_stopping(shared->options.poll)) return false;
            events = poll_events(*shared, *state);
          }
          return sink.write(events.data(), events.size());
        },
        [shared](bool) { shared->streams.fetch_sub(1); });
  });
}

std::string format_event(const std::string& name, const std::string& data) {
  std::string out = "event: " + name + "\n";
  std::size_t start = 0;
  while (true) {
    std::size_t end = data.find('\n', start);
    out += "data: " + data.substr(start, end == std::string::npos ? std::string::npos : end - start) + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out + "\n";
}

}  // namespace cutover::control
