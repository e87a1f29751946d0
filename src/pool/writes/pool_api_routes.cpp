// Routes:
//   GET    /pools                       every pool: source (config|api), version, settings, overrides
//   GET    /pools/ID
//   PUT    /pools/ID                    {"pool": {settings}, fence options}: create or replace
//   PATCH  /pools/ID                    {"patch": {merge patch of the settings}, fence options}
//   DELETE /pools/ID                    {fence options}; the floor wants allow_empty
//   GET    /pools/ID/history[?after=N]
//   POST   /pools/ID/undo               {"to": N, fence options}
//   POST   /pools/ID/endpoints/ADDR/{drain,undrain,force-up}   {fence options}
#include "pool/writes/pool_api_routes.h"

#include <algorithm>

#include "store/api/api_routes.h"
#include "pool/writes/pool_requests.h"

namespace cutover::pool {
namespace {

using nlohmann::json;

// Pool ids become config paths (pools.ID) and URL parts: keep them plain.
bool valid_pool_id(const std::string& id) {
  return !id.empty() && id.size() <= 63 && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
  });
}

std::optional<std::string> pool_from(const httplib::Request& request, httplib::Response& response) {
  std::string id = request.matches[1];
  if (!valid_pool_id(id)) {
    store::reply_error(response, 400, "bad pool id '" + id + "': use letters, digits, '-' and '_' (at most 63)");
    return std::nullopt;
  }
  return id;
}

using RequestParser = base::Result<PoolWriteRequest> (*)(const std::string&, const json&);

control::ControlServer::Handler write_route(PoolWrites& writes, RequestParser parse) {
  return [&writes, parse](const httplib::Request& request, httplib::Response& response) {
    auto pool = pool_from(request, response);
    if (!pool) return;
    auto body = store::body_from(request, response);
    if (!body) return;
    auto write = parse(*pool, *body);
    if (!write) return store::reply_error(response, 400, write.error().message);
    write->who += "@" + request.remote_addr;
    auto result = writes.write(std::move(*write));
    store::reply(response, pool_http_status(result), pool_result_json(*pool, result));
  };
}

void get_pools(PoolWrites& writes, httplib::Response& response) {
  json pools = json::array();
  for (const auto& [id, state] : writes.states()) {
    bool from_config = writes.is_config_pool(id);
    if (from_config || state.settings) pools.push_back(pool_view_json(id, state, from_config));
  }
  store::reply(response, 200, json{{"pools", pools}});
}

void get_pool(PoolWrites& writes, const httplib::Request& request, httplib::Response& response) {
  auto pool = pool_from(request, response);
  if (!pool) return;
  auto states = writes.states();
  auto it = states.find(*pool);
  bool from_config = writes.is_config_pool(*pool);
  if (it == states.end() || (!from_config && !it->second.settings)) {
    std::uint64_t version = it == states.end() ? 0 : it->second.version;
    return store::reply(response, 404, json{{"error", "there is no pool " + *pool}, {"version", version}});
  }
  store::reply(response, 200, pool_view_json(*pool, it->second, from_config));
}

void get_history(PoolWrites& writes, const httplib::Request& request, httplib::Response& response) {
  auto pool = pool_from(request, response);
  if (!pool) return;
  std::uint64_t after = 0;
  if (request.has_param("after")) after = std::strtoull(request.get_param_value("after").c_str(), nullptr, 10);
  auto entries = writes.history(*pool, after);
  if (!entries) return store::reply_error(response, 500, entries.error().message);
  json list = json::array();
  for (const auto& entry : *entries) {
    list.push_back({{"version", entry.version}, {"plan_version", entry.plan_version}, {"at_ms", entry.at_ms},
                    {"who", entry.who}, {"what", entry.what}, {"state", json::parse(entry.state, nullptr, false)}});
  }
  store::reply(response, 200, json{{"pool", *pool}, {"entries", list}});
}

void post_undo(PoolWrites& writes, const httplib::Request& request, httplib::Response& response) {
  auto pool = pool_from(request, response);
  if (!pool) return;
  auto body = store::body_from(request, response);
  if (!body) return;
  auto undo = undo_pool_request(*pool, *body);
  if (!undo) return store::reply_error(response, 400, undo.error().message);
  undo->second.who += "@" + request.remote_addr;
  auto result = writes.undo(*pool, undo->first, std::move(undo->second));
  store::reply(response, pool_http_status(result), pool_result_json(*pool, result));
}

}  // namespace

void add_pool_api_routes(control::ControlServer& http, PoolWrites& writes) {
  http.get(R"(/pools)", [&writes](const auto&, auto& response) { get_pools(writes, response); });
  http.get(R"(/pools/([^/]+))", [&writes](const auto& rq, auto& rs) { get_pool(writes, rq, rs); });
  http.put(R"(/pools/([^/]+))", write_route(writes, put_pool_request));
  http.patch(R"(/pools/([^/]+))", write_route(writes, patch_pool_request));
  http.del(R"(/pools/([^/]+))", write_route(writes, delete_pool_request));
  http.get(R"(/pools/([^/]+)/history)", [&writes](const auto& rq, auto& rs) { get_history(writes, rq, rs); });
  http.post(R"(/pools/([^/]+)/undo)", [&writes](const auto& rq, auto& rs) { post_undo(writes, rq, rs); });
  http.post(R"(/pools/([^/]+)/endpoints/([^/]+)/(drain|undrain|force-up))",
            [&writes](const httplib::Request& request, httplib::Response& response) {
              auto pool = pool_from(request, response);
              if (!pool) return;
              auto body = store::body_from(request, response);
              if (!body) return;
              auto write = override_request(*pool, request.matches[2], request.matches[3], *body);
              if (!write) return store::reply_error(response, 400, write.error().message);
              write->who += "@" + request.remote_addr;
              auto result = writes.write(std::move(*write));
              store::reply(response, pool_http_status(result), pool_result_json(*pool, result));
            });
}

}  // namespace cutover::pool
