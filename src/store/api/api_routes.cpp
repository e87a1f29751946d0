// Routes (each also with ?view=NAME: that view's own copy of the zone, api_routes.h):
//   GET  /zones                        zones with version and serial
//   GET  /zones/ZONE/records[?name=&type=]
//   POST /zones/ZONE/records           {"edits":[...], fence options}
//   GET  /zones/ZONE/history[?after=N]
//   POST /zones/ZONE/undo              {"to":N, fence options}
//   POST /zones/ZONE/compact
#include "store/api/api_routes.h"

#include <nlohmann/json.hpp>

#include "store/api/record_json.h"

namespace cutover::store {

using nlohmann::json;

void reply(httplib::Response& response, int status, const json& body) {
  control::reply_json(response, status, body.dump());
}

void reply_error(httplib::Response& response, int status, const std::string& message) {
  reply(response, status, json{{"error", message}});
}

std::optional<json> body_from(const httplib::Request& request, httplib::Response& response) {
  if (request.body.empty()) return json::object();
  json body = json::parse(request.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    reply_error(response, 400, "the body must be a JSON object");
    return std::nullopt;
  }
  return body;
}

namespace {

std::optional<dns::Name> zone_from(const httplib::Request& request, httplib::Response& response) {
  std::string text = request.matches[1];
  if (text.empty() || text.back() != '.') text.push_back('.');
  auto name = dns::Name::from_text(text);
  if (!name) {
    reply_error(response, 400, "bad zone name: " + name.error().message);
    return std::nullopt;
  }
  return *name;
}

void reply_result(httplib::Response& response, const WriteResult& result) {
  reply(response, http_status(result.status), result_json(result));
}

void get_records(Store& store, const httplib::Request& request, httplib::Response& response) {
  auto zone = zone_from(request, response);
  if (!zone) return;
  auto view = store.view(*zone);
  if (!view) return reply_error(response, 404, view.error().message);
  std::optional<dns::Name> name;
  std::optional<dns::RRType> type;
  if (request.has_param("name")) {
    std::string text = request.get_param_value("name");
    auto parsed = text == "@" ? base::Result<dns::Name>(*zone) : dns::Name::from_text(text, &*zone);
    if (!parsed) return reply_error(response, 400, "bad name: " + parsed.error().message);
    name = *parsed;
  }
  if (request.has_param("type")) {
    type = dns::type_from_text(request.get_param_value("type"));
    if (!type) return reply_error(response, 400, "unknown type " + request.get_param_value("type"));
  }
  json records = json::array();
  for (const auto& record : view->data.records()) {
    if ((name && !(record.owner == *name)) || (type && record.type != *type)) continue;
    records.push_back(record_json(record));
  }
  json body{{"zone", zone->to_text()},
            {"version", view->version},
            {"plan_version", view->plan_version},
            {"serial", view->serial},
            {"records", records}};
  if (!store.view_name().empty()) body["view"] = store.view_name();
  reply(response, 200, body);
}

void post_records(Store& store, const httplib::Request& request, httplib::Response& response) {
  auto zone = zone_from(request, response);
  if (!zone) return;
  auto body = body_from(request, response);
  if (!body) return;
  WriteRequest write;
  write.zone = *zone;
  write.who = "api";
  if (auto fenced = fence_from_json(*body, write); !fenced) return reply_error(response, 400, fenced.error().message);
  if (!body->contains("edits") || !(*body)["edits"].is_array() || (*body)["edits"].empty()) {
    return reply_error(response, 400, "edits must be a non-empty list");
  }
  for (const auto& item : (*body)["edits"]) {
    auto edit = edit_from_json(item, *zone);
    if (!edit) return reply_error(response, 400, edit.error().message);
    write.edits.push_back(std::move(*edit));
  }
  if (write.what.empty()) write.what = "api write";
  reply_result(response, store.write(std::move(write)));
}

void get_history(Store& store, const httplib::Request& request, httplib::Response& response) {
  auto zone = zone_from(request, response);
  if (!zone) return;
  std::uint64_t after = 0;
  if (request.has_param("after")) after = std::strtoull(request.get_param_value("after").c_str(), nullptr, 10);
  auto view = store.view(*zone);
  if (!view) return reply_error(response, 404, view.error().message);
  auto entries = store.entries_after(*zone, after);
  if (!entries) return reply_error(response, 500, entries.error().message);
  json list = json::array();
  for (const auto& entry : *entries) list.push_back(entry_json(entry));
  json reply_body{{"zone", zone->to_text()}, {"version", view->version}, {"entries", list}};
  if (!store.view_name().empty()) reply_body["view"] = store.view_name();
  reply(response, 200, reply_body);
}

void post_undo(Store& store, const httplib::Request& request, httplib::Response& response) {
  auto zone = zone_from(request, response);
  if (!zone) return;
  auto body = body_from(request, response);
  if (!body) return;
  if (!body->contains("to") || !(*body)["to"].is_number_unsigned()) {
    return reply_error(response, 400, "to must be the version to return to");
  }
  WriteRequest fence;
  fence.who = "api";
  if (auto fenced = fence_from_json(*body, fence); !fenced) return reply_error(response, 400, fenced.error().message);
  reply_result(response, store.undo(*zone, (*body)["to"].get<std::uint64_t>(), std::move(fence)));
}

void post_compact(Store& store, const httplib::Request& request, httplib::Response& response) {
  auto zone = zone_from(request, response);
  if (!zone) return;
  auto compacted = store.compact(*zone);
  if (!compacted) {
    int status = compacted.error().code == base::ErrorCode::kNotFound ? 404 : 500;
    return reply_error(response, status, compacted.error().message);
  }
  reply(response, 200, json{{"zone", zone->to_text()}, {"compacted_to_version", *compacted}});
}

// The store a request addresses: the default one, or with ?view=NAME that view's; null (and
// 404 answered) for a view without zones of its own here.
Store* store_of(Store& store, const ViewStores& views, const httplib::Request& request, httplib::Response& response) {
  if (!request.has_param("view")) return &store;
  std::string view = request.get_param_value("view");
  Store* found = views && !view.empty() ? views(view) : nullptr;
  if (found == nullptr) reply_error(response, 404, "no view " + view + " with zones of its own is served here");
  return found;
}

template <typename Handler>
auto in_store(Store& store, ViewStores views, Handler handler) {
  return [&store, views = std::move(views), handler](const httplib::Request& request, httplib::Response& response) {
    Store* target = store_of(store, views, request, response);
    if (target != nullptr) handler(*target, request, response);
  };
}

// Wraps a changing route: zones pulled from a primary answer 409 and name it (a view's own
// zones are never secondaries).
template <typename Handler>
auto unless_secondary(std::shared_ptr<const SecondaryZoneKeys> secondaries, Store& store, ViewStores views,
                      Handler handler) {
  return in_store(store, std::move(views), [secondaries, handler](Store& target, const httplib::Request& request,
                                                                   httplib::Response& response) {
    auto zone = zone_from(request, response);
    if (!zone) return;
    if (target.view_name().empty() && secondaries->contains(zone_key(*zone))) {
      return reply_error(response, 409, "zone " + zone->to_text() + " is a secondary: change it on its primary");
    }
    handler(target, request, response);
  });
}

void get_zones(Store& store, const httplib::Request&, httplib::Response& response) {
  json zones = json::array();
  for (const auto& name : store.zone_names()) {
    auto view = store.view(name);
    if (view) zones.push_back({{"zone", name.to_text()}, {"version", view->version}, {"serial", view->serial}});
  }
  json body{{"zones", zones}};
  if (!store.view_name().empty()) body["view"] = store.view_name();
  reply(response, 200, body);
}

}  // namespace

void add_api_routes(control::ControlServer& http, Store& store, SecondaryZoneKeys secondaries, ViewStores views) {
  auto secondary_keys = std::make_shared<const SecondaryZoneKeys>(std::move(secondaries));
  http.get(R"(/zones)", in_store(store, views, get_zones));
  http.get(R"(/zones/([^/]+)/records)", in_store(store, views, get_records));
  http.post(R"(/zones/([^/]+)/records)", unless_secondary(secondary_keys, store, views, post_records));
  http.get(R"(/zones/([^/]+)/history)", in_store(store, views, get_history));
  http.post(R"(/zones/([^/]+)/undo)", unless_secondary(secondary_keys, store, views, post_undo));
  http.post(R"(/zones/([^/]+)/compact)", unless_secondary(secondary_keys, store, views, post_compact));
}

}  // namespace cutover::store
