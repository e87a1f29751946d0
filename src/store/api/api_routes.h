// The HTTP/JSON write API on the shared control listener: read records and versions, write
// (set/add/delete with fence, floor and dry run), history, undo and journal compaction.
// Every write goes through store::Store::write. Handlers are thread-safe.
#pragma once

#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "control/control_server.h"
#include "store/store.h"

namespace cutover::store {

// Zones whose content comes from a primary (store::zone_key of each): the API reads them
// but refuses writes, undo and compaction, which the next transfer would undo or contradict.
using SecondaryZoneKeys = std::set<std::string>;

// `store` (the default zones) must outlive `http`'s serving. Every zone route takes
// `?view=NAME` to address that view's own copy of the zone instead (`views` finds it; an
// unknown view is 404); GET /zones?view=NAME lists the view's zones.
void add_api_routes(control::ControlServer& http, Store& store, SecondaryZoneKeys secondaries, ViewStores views = {});

// Shared with the pool API routes: a JSON reply, an {"error": message} reply, and the
// request body as a JSON object (an empty body is {}; anything else not an object: 400).
void reply(httplib::Response& response, int status, const nlohmann::json& body);
void reply_error(httplib::Response& response, int status, const std::string& message);
std::optional<nlohmann::json> body_from(const httplib::Request& request, httplib::Response& response);

}  // namespace cutover::store
