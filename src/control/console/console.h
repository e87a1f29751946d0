// Console: the web console on a ControlServer (docs/console.md). It serves the page and its
// script at `/` and `/console/*` to anyone who reaches the port (they hold no data; the
// script sends the token itself), the current reading of every panel at `/console/panels`,
// and a Server-Sent Events stream at `/events` (WHATWG HTML §9.2 "Server-sent events") that
// sends a panel whenever its reading changed and says every poll which panels are still
// current, so the page can show the age of each panel's data. It knows no feature: whoever
// owns the port registers panels as functions that render a JSON document (pools' status,
// the zones, the monitor's round), and the page draws each panel it knows by its id.
// Panels are added before mount(); the sources run on the server's threads, concurrently,
// and must be thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "control/control_server.h"

namespace cutover::control {

// One reading of a panel: its JSON document and, when the data is older than the reading
// (the monitor's last round), when it was measured.
struct PanelReading {
  std::string json;
  std::optional<std::chrono::system_clock::time_point> measured_at;  // nullopt: now
};

using PanelSource = std::function<PanelReading()>;

// An append-only feed beside the panels (the pools' probe ticks): asked for what came after
// `after` (0: everything it keeps), it returns a JSON document of those entries, or an empty
// string when there is nothing new, and sets `next` to pass as `after` next time. Each stream
// sends everything once (in its first event) and then only what is new, so a long history
// is not resent every poll.
struct FeedReading {
  std::string json;  // empty: nothing after `after`
  std::uint64_t next = 0;
};
using FeedSource = std::function<FeedReading(std::uint64_t after)>;

struct ConsoleOptions {
  std::string title = "cutover";             // the page's heading: "cutover serve", "cutover monitor"
  std::chrono::milliseconds poll{1000};      // how often each stream reads every panel
  std::size_t max_streams = 4;               // concurrent /events streams; more get 503
  // The page offers the demo endpoints' stop/start buttons (the embedded default of serve).
  std::vector<std::string> demo_endpoints;
};

class Console {
 public:
  explicit Console(ConsoleOptions options);

  // `id` names the panel for the page ("pools", "zones", "replication", "monitor").
  void add_panel(std::string id, PanelSource source);
  // `id` names the feed ("probes"); the page merges its entries into the panels it draws.
  void add_feed(std::string id, FeedSource source);
  // Adds the console's routes to `http`, which must not have started. `http` must outlive
  // nothing of this: the routes share the panels, not the Console object.
  void mount(ControlServer& http) const;

  // {"title", "poll_ms", "server_ms", "demo_endpoints", "panels": {ID: {"as_of_ms", "data"}},
  //  "feeds": {ID: DOCUMENT-or-null}}:
  // what /console/panels serves and the stream's first event carries.
  std::string snapshot_json() const;

  struct Shared;  // options and panels, shared with the routes (console.cpp)

 private:
  std::shared_ptr<Shared> shared_;
};

// One SSE event: "event: NAME", one "data:" line per line of `data`, then a blank line.
std::string format_event(const std::string& name, const std::string& data);

}  // namespace cutover::control
