// The lab API's requests: path and body read strictly, then one LabModel call each.
#include "lab/authority/lab_requests.h"

#include <cstdint>
#include <optional>
#include <regex>
#include <stdexcept>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/clock.h"

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

const std::string kName = R"(([^/]+))";

// JSON text of a reply. Names and messages may hold any bytes (a DNS label is not UTF-8, and an
// error quotes the path it refuses): bytes that are not UTF-8 become U+FFFD instead of
// making the dump throw.
std::string json_text(const Json& json) { return json.dump(-1, ' ', false, Json::error_handler_t::replace); }

LabReply error_reply(int status, const std::string& message) { return {status, json_text(Json{{"error", message}})}; }

LabReply done_reply(const base::Result<std::int64_t>& done) {
  if (!done) return error_reply(done.error().code == base::ErrorCode::kNotFound ? 404 : 400, done.error().message);
  return {200, json_text(Json{{"at_ns", *done}})};
}

// A field that is not what the request needs (the message names it).
class FieldError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A TTL-like field: a whole number from 0 to 2^32-1 (JSON numbers may be floats, negative or
// huge; converting those to uint32_t is undefined or wraps). `fallback` when absent; nullopt
// fallback: the field is required.
std::uint32_t u32_field(const Json& body, const char* key, std::optional<std::uint32_t> fallback) {
  auto it = body.find(key);
  if (it == body.end()) {
    if (fallback) return *fallback;
    throw FieldError(std::string(key) + " is required");
  }
  if (!it->is_number_unsigned() || it->get<std::uint64_t>() > 0xffffffffULL) {
    throw FieldError(std::string(key) + " must be a whole number from 0 to 4294967295");
  }
  return static_cast<std::uint32_t>(it->get<std::uint64_t>());
}

// Parses the body, runs `apply` with it; a malformed body or field is a 400.
template <typename Apply>
LabReply with_body(const std::string& text, Apply apply) {
  Json json = Json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return error_reply(400, "body must be a JSON object");
  try {
    return apply(json);
  } catch (const Json::exception& e) {
    return error_reply(400, e.what());
  } catch (const FieldError& e) {
    return error_reply(400, e.what());
  }
}

LabReply put_zone(LabModel& model, const dns::Name& origin, const std::string& text) {
  return with_body(text, [&](const Json& body) {
    std::string mode = body.value("negative", "capped");
    if (mode != "capped" && mode != "uncapped") return error_reply(400, "negative must be capped or uncapped");
    return done_reply(model.put_zone(origin, u32_field(body, "soa_ttl", 60U), u32_field(body, "minimum", 60U),
                                     mode == "capped" ? zone::NegativeTtlMode::kCapped : zone::NegativeTtlMode::kSoaTtl,
                                     body.value("ns_in_authority", false)));
  });
}

LabReply put_zone_file(LabModel& model, const dns::Name& origin, const std::string& text) {
  return with_body(text, [&](const Json& body) {
    return done_reply(model.put_zone_file(origin, body.at("text").get<std::string>()));
  });
}

LabReply put_rrset(LabModel& model, const dns::Name& owner, dns::RRType type, const std::string& text) {
  return with_body(text, [&](const Json& body) {
    LabRRset rrset{u32_field(body, "ttl", std::nullopt), body.at("data").get<std::vector<std::string>>()};
    return done_reply(model.put_rrset(owner, type, rrset));
  });
}

LabReply put_outage(LabModel& model, const dns::Name& target, bool zone_wide, const std::string& text) {
  return with_body(text, [&](const Json& body) {
    auto mode = outage_from_text(body.at("mode").get<std::string>());
    if (!mode) return error_reply(400, "mode must be none, drop, refuse or servfail");
    return done_reply(zone_wide ? model.set_zone_outage(target, *mode) : model.set_name_outage(target, *mode));
  });
}

LabReply counts(const LabModel& model) {
  Json list = Json::array();
  for (const auto& count : model.counts()) list.push_back({{"name", count.name}, {"type", count.type}, {"count", count.count}});
  return {200, json_text(Json{{"counts", list}, {"at_ns", base::monotonic_ns()}})};
}

using Match = std::smatch;

base::Result<dns::Name> name_at(const Match& match, std::size_t index) { return dns::Name::from_text(match[index].str()); }

using Handler = LabReply (*)(LabModel&, const Match&, const std::string& body);

// One row of the API: the method, the path pattern (as the control server registers it), the
// same pattern compiled for matching here, and what the request does.
struct Route {
  Route(std::string method_text, std::string pattern_text, Handler handler)
      : method(std::move(method_text)), pattern(std::move(pattern_text)), regex(pattern), apply(handler) {}

  std::string method;
  std::string pattern;
  std::regex regex;
  Handler apply;
};

// The one route table: lab_routes() and handle_lab_request() both read it, in this order.
const std::vector<Route>& route_table() {
  static const std::vector<Route> kRoutes = {
      {"PUT", "/lab/zones/" + kName,
       [](LabModel& model, const Match& match, const std::string& body) {
         auto origin = name_at(match, 1);
         return origin ? put_zone(model, *origin, body) : error_reply(400, origin.error().message);
       }},
      {"PUT", "/lab/zone-files/" + kName,
       [](LabModel& model, const Match& match, const std::string& body) {
         auto origin = name_at(match, 1);
         return origin ? put_zone_file(model, *origin, body) : error_reply(400, origin.error().message);
       }},
      {"DELETE", "/lab/zones/" + kName,
       [](LabModel& model, const Match& match, const std::string&) {
         auto origin = name_at(match, 1);
         return origin ? done_reply(model.delete_zone(*origin)) : error_reply(400, origin.error().message);
       }},
      {"PUT", "/lab/rrsets/" + kName + "/" + kName,
       [](LabModel& model, const Match& match, const std::string& body) {
         auto owner = name_at(match, 1);
         auto type = dns::type_from_text(match[2].str());
         return owner && type ? put_rrset(model, *owner, *type, body) : error_reply(400, "bad name or type in the path");
       }},
      {"DELETE", "/lab/rrsets/" + kName + "/" + kName,
       [](LabModel& model, const Match& match, const std::string&) {
         auto owner = name_at(match, 1);
         auto type = dns::type_from_text(match[2].str());
         return owner && type ? done_reply(model.delete_rrset(*owner, *type))
                              : error_reply(400, "bad name or type in the path");
       }},
      {"DELETE", "/lab/names/" + kName,
       [](LabModel& model, const Match& match, const std::string&) {
         auto owner = name_at(match, 1);
         return owner ? done_reply(model.delete_rrset(*owner, std::nullopt)) : error_reply(400, owner.error().message);
       }},
      {"PUT", "/lab/outage/(zone|name)/" + kName,
       [](LabModel& model, const Match& match, const std::string& body) {
         auto target = name_at(match, 2);
         return target ? put_outage(model, *target, match[1].str() == "zone", body)
                       : error_reply(400, target.error().message);
       }},
      {"GET", "/lab/counts", [](LabModel& model, const Match&, const std::string&) { return counts(model); }},
      {"GET", "/lab/clock",
       [](LabModel&, const Match&, const std::string&) {
         return LabReply{200, json_text(Json{{"at_ns", base::monotonic_ns()}})};
       }},
  };
  return kRoutes;
}

}  // namespace

std::vector<LabRoute> lab_routes() {
  std::vector<LabRoute> list;
  for (const auto& route : route_table()) list.push_back({route.method, route.pattern});
  return list;
}

LabReply handle_lab_request(LabModel& model, const std::string& method, const std::string& path,
                            const std::string& body) {
  for (const auto& route : route_table()) {
    Match match;
    if (route.method == method && std::regex_match(path, match, route.regex)) return route.apply(model, match, body);
  }
  return error_reply(404, "no such lab route");
}

}  // namespace cutover::lab
