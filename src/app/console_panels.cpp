// The serve console's panel documents; the page (control/console/assets/app.js) draws them.
#include "app/console_panels.h"

#include <arpa/inet.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "auth/views.h"
#include "net/address.h"

namespace cutover::app {
namespace {

using nlohmann::json;

std::string prefix_text(const config::AddressPrefix& prefix) {
  char text[INET6_ADDRSTRLEN] = {};
  ::inet_ntop(prefix.family, prefix.bytes, text, sizeof text);
  return std::string(text) + "/" + std::to_string(prefix.bits);
}

// One zone's row: the serial served now and, with a journal, its version and last writes.
// `view`: empty for a top-level zone, else the view whose own copy `zone` is.
json zone_json(const zone::Zone& zone, const std::string& view_name, Replication* replication, bool undo) {
  json out = {{"zone", zone.origin().to_text()}, {"serial", zone.soa_fields().serial}};
  if (!view_name.empty()) out["view"] = view_name;
  store::Store* store = replication == nullptr ? nullptr
                        : view_name.empty()    ? replication->store()
                                               : replication->view_store(view_name);
  if (store == nullptr || !undo) return out;
  auto view = store->view(zone.origin());
  if (!view) return out;
  out["version"] = view->version;
  out["undo"] = true;
  json writes = json::array();
  std::uint64_t after = view->version > kConsoleWrites ? view->version - kConsoleWrites : 0;
  if (auto entries = store->entries_after(zone.origin(), after)) {
    for (auto it = entries->rbegin(); it != entries->rend(); ++it) {
      writes.push_back({{"version", it->version}, {"serial", it->serial}, {"at_ms", it->at_ms},
                        {"who", it->who}, {"what", it->what}});
    }
  }
  out["writes"] = writes;
  return out;
}

// The zones panel's rows, read from the store again only when a zone's served serial changed
// (every journaled write, undo and reload changes it), so a poll of the stream neither copies
// a zone (Store::view) nor reads the journal. Thread-safe: the streams poll concurrently.
class ZoneRows {
 public:
  ZoneRows(Replication* replication, bool undo) : replication_(replication), undo_(undo) {}

  json row(const zone::Zone& zone, const std::string& view = {}) {
    std::string key = zone.origin().to_text() + " " + view;
    std::uint32_t serial = zone.soa_fields().serial;
    {
      std::lock_guard lock(mutex_);
      auto cached = rows_.find(key);
      if (cached != rows_.end() && cached->second.first == serial) return cached->second.second;
    }
    json out = zone_json(zone, view, replication_, undo_);
    std::lock_guard lock(mutex_);
    rows_[key] = {serial, out};
    return out;
  }

 private:
  Replication* const replication_;
  const bool undo_;
  std::mutex mutex_;  // guards rows_
  std::map<std::string, std::pair<std::uint32_t, json>> rows_;  // "origin view" -> (serial, row)
};

struct ReplicatedZone {
  dns::Name origin;
  std::string role;  // "primary" or "secondary"
  std::vector<std::string> notify;
  std::vector<std::string> allow_transfer;
  std::string primary;
};

std::vector<ReplicatedZone> replicated_zones(const config::Config& config) {
  std::vector<ReplicatedZone> zones;
  for (const auto& zone : config.zones) {
    const auto& r = zone.replication;
    ReplicatedZone row{zone.origin, r.primary ? "secondary" : "primary", {}, {}, ""};
    for (const auto& target : r.notify) row.notify.push_back(net::format_address(target.storage));
    for (const auto& prefix : r.allow_transfer) row.allow_transfer.push_back(prefix_text(prefix));
    if (r.primary) row.primary = net::format_address(r.primary->storage);
    if (r.primary || !row.notify.empty() || !row.allow_transfer.empty()) zones.push_back(std::move(row));
  }
  return zones;
}

}  // namespace

void add_serve_panels(control::Console& console, const server::Server& server, pool::PoolService& pools,
                      Replication* replication, const config::Config& config, bool undo) {
  console.add_panel("pools", [&pools] { return control::PanelReading{pools.status_json(), std::nullopt}; });
  // The timeline's probe ticks: the hour the server kept, once per stream, then the new ones.
  console.add_feed("probes", [&pools](std::uint64_t after) {
    control::FeedReading reading;
    reading.json = pools.probe_ticks_json(after, reading.next);
    return reading;
  });
  console.add_panel("zones", [&server, rows = std::make_shared<ZoneRows>(replication, undo)] {
    json zones = json::array();
    if (auto served = server.zones()) {
      for (const auto& zone : served->zones()) zones.push_back(rows->row(*zone));
      // Then each view's own copies (docs/steering.md, "Views"): the zones of its set that
      // are not the top-level ones.
      if (const auth::ViewTable* views = served->views()) {
        for (const auto& view : views->views()) {
          for (const auto& zone : view.zones->zones()) {
            if (served->find(zone->origin()) != zone.get()) zones.push_back(rows->row(*zone, view.name));
          }
        }
      }
    }
    return control::PanelReading{json{{"zones", zones}}.dump(), std::nullopt};
  });
  console.add_panel("replication", [&server, replication, rows = replicated_zones(config)] {
    std::vector<replication::UnusableZone> unusable;
    if (replication != nullptr && replication->secondary() != nullptr) {
      unusable = replication->secondary()->unusable().current();
    }
    auto served = server.zones();
    json zones = json::array();
    for (const auto& row : rows) {
      json out = {{"zone", row.origin.to_text()}, {"role", row.role}, {"notify", row.notify},
                  {"allow_transfer", row.allow_transfer}, {"serial", nullptr}};
      if (served) {
        for (const auto& zone : served->zones()) {
          if (zone->origin() == row.origin) out["serial"] = zone->soa_fields().serial;
        }
      }
      if (row.role == "secondary") {
        out["primary"] = row.primary;
        out["usable"] = true;
        out["expired"] = false;
        for (const auto& zone : unusable) {
          if (zone.origin == row.origin) {
            out["usable"] = false;
            out["expired"] = zone.expired;
          }
        }
      }
      zones.push_back(out);
    }
    return control::PanelReading{json{{"zones", zones}}.dump(), std::nullopt};
  });
}

}  // namespace cutover::app
