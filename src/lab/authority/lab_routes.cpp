// The lab control API. Every mutating route answers {"at_ns": T}, T being the CLOCK_MONOTONIC
// time at which the change became visible to DNS queries.
//   PUT    /lab/zones/ORIGIN          {"soa_ttl":30,"minimum":6,"negative":"capped"|"uncapped",
//                                       "ns_in_authority":false}
//   DELETE /lab/zones/ORIGIN
//   PUT    /lab/rrsets/NAME/TYPE      {"ttl":5,"data":["192.0.2.1"]}
//   DELETE /lab/rrsets/NAME/TYPE      DELETE /lab/names/NAME (every type)
//   PUT    /lab/outage/zone/ORIGIN    {"mode":"drop"|"refuse"|"servfail"|"none"}
//   PUT    /lab/outage/name/NAME      (same body)
//   GET    /lab/counts                {"counts":[{"name","type","count"}],"at_ns"}
//   GET    /lab/clock                 {"at_ns"}
#include <nlohmann/json.hpp>

#include "lab/authority/lab_authority.h"
#include "lab/authority/lab_interceptor.h"
#include "lab/clock.h"

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

void reply(httplib::Response& response, const base::Result<std::int64_t>& done) {
  if (!done) {
    int status = done.error().code == base::ErrorCode::kNotFound ? 404 : 400;
    control::reply_json(response, status, Json{{"error", done.error().message}}.dump());
    return;
  }
  control::reply_json(response, 200, Json{{"at_ns", *done}}.dump());
}

void bad_request(httplib::Response& response, const std::string& message) {
  control::reply_json(response, 400, Json{{"error", message}}.dump());
}

base::Result<dns::Name> path_name(const httplib::Request& request, std::size_t index) {
  return dns::Name::from_text(request.matches[index].str());
}

// Parses the body, runs `body` with it; a malformed body or field is a 400.
template <typename Body>
void with_body(const httplib::Request& request, httplib::Response& response, Body body) {
  Json json = Json::parse(request.body, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return bad_request(response, "body must be a JSON object");
  try {
    body(json);
  } catch (const Json::exception& e) {
    bad_request(response, e.what());
  }
}

}  // namespace

LabAuthority::LabAuthority(server::Server& server, control::ControlServer& http)
    : model_([&server](std::shared_ptr<const auth::ZoneSet> zones) { server.publish(std::move(zones)); }) {
  server.add_interceptor(make_lab_interceptor(model_));
  register_routes(http);
}

base::Status LabAuthority::start() {
  model_.publish_all();
  return {};
}

base::Status LabAuthority::reload(const config::Config&) {
  model_.publish_all();
  return {};
}

void LabAuthority::register_routes(control::ControlServer& http) {
  const std::string name = R"(([^/]+))";
  http.put("/lab/zones/" + name, [this](const httplib::Request& request, httplib::Response& response) {
    auto origin = path_name(request, 1);
    if (!origin) return bad_request(response, origin.error().message);
    with_body(request, response, [&](const Json& body) {
      std::string mode = body.value("negative", "capped");
      if (mode != "capped" && mode != "uncapped") return bad_request(response, "negative must be capped or uncapped");
      reply(response, model_.put_zone(*origin, body.value("soa_ttl", 60U), body.value("minimum", 60U),
                                      mode == "capped" ? zone::NegativeTtlMode::kCapped : zone::NegativeTtlMode::kSoaTtl,
                                      body.value("ns_in_authority", false)));
    });
  });
  http.del("/lab/zones/" + name, [this](const httplib::Request& request, httplib::Response& response) {
    auto origin = path_name(request, 1);
    if (!origin) return bad_request(response, origin.error().message);
    reply(response, model_.delete_zone(*origin));
  });
  http.put("/lab/rrsets/" + name + "/" + name, [this](const httplib::Request& request, httplib::Response& response) {
    auto owner = path_name(request, 1);
    auto type = dns::type_from_text(request.matches[2].str());
    if (!owner || !type) return bad_request(response, "bad name or type in the path");
    with_body(request, response, [&](const Json& body) {
      LabRRset rrset{body.at("ttl").get<std::uint32_t>(), body.at("data").get<std::vector<std::string>>()};
      reply(response, model_.put_rrset(*owner, *type, rrset));
    });
  });
  http.del("/lab/rrsets/" + name + "/" + name, [this](const httplib::Request& request, httplib::Response& response) {
    auto owner = path_name(request, 1);
    auto type = dns::type_from_text(request.matches[2].str());
    if (!owner || !type) return bad_request(response, "bad name or type in the path");
    reply(response, model_.delete_rrset(*owner, *type));
  });
  http.del("/lab/names/" + name, [this](const httplib::Request& request, httplib::Response& response) {
    auto owner = path_name(request, 1);
    if (!owner) return bad_request(response, owner.error().message);
    reply(response, model_.delete_rrset(*owner, std::nullopt));
  });
  http.put("/lab/outage/(zone|name)/" + name, [this](const httplib::Request& request, httplib::Response& response) {
    auto target = path_name(request, 2);
    if (!target) return bad_request(response, target.error().message);
    bool zone_wide = request.matches[1].str() == "zone";
    with_body(request, response, [&](const Json& body) {
      auto mode = outage_from_text(body.at("mode").get<std::string>());
      if (!mode) return bad_request(response, "mode must be none, drop, refuse or servfail");
      reply(response, zone_wide ? model_.set_zone_outage(*target, *mode) : model_.set_name_outage(*target, *mode));
    });
  });
  http.get("/lab/counts", [this](const httplib::Request&, httplib::Response& response) {
    Json counts = Json::array();
    for (const auto& count : model_.counts()) {
      counts.push_back({{"name", count.name}, {"type", count.type}, {"count", count.count}});
    }
    control::reply_json(response, 200, Json{{"counts", counts}, {"at_ns", monotonic_ns()}}.dump());
  });
  http.get("/lab/clock", [](const httplib::Request&, httplib::Response& response) {
    control::reply_json(response, 200, Json{{"at_ns", monotonic_ns()}}.dump());
  });
}

}  // namespace cutover::lab
