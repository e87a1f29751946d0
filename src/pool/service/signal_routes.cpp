// The external signals on the control API (docs/steering.md, "External signals"): a system
// that knows more than a probe can (a deploy pipeline, a maintenance calendar, a remote
// monitor) pushes NAME = up|down with a TTL; `signal` checks read it on their interval. A
// signal not renewed within its TTL counts as unknown. Behind the API's bearer token like
// every route.
#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "config/config.h"
#include "pool/service/pool_service.h"
#include "pool/status_report.h"

namespace cutover::pool {
namespace {

using nlohmann::json;

void refuse(httplib::Response& response, int status, const std::string& message) {
  control::reply_json(response, status, json{{"error", message}}.dump() + "\n");
}

// `ttl`: seconds as a number, or a duration text like "90s", "5m" or "1h" (the config's
// durations, plus hours: a signal often lasts a maintenance window).
std::optional<std::chrono::milliseconds> ttl_of(const json& value) {
  constexpr long long kMaxSeconds = std::chrono::duration_cast<std::chrono::seconds>(health::kMaxSignalTtl).count();
  if (value.is_number_unsigned() || value.is_number_integer()) {
    auto seconds = value.get<long long>();
    if (seconds <= 0 || seconds > kMaxSeconds) return std::nullopt;
    return std::chrono::milliseconds(seconds * 1000);
  }
  if (!value.is_string()) return std::nullopt;
  std::string text = value.get<std::string>();
  if (!text.empty() && text.back() == 'h') {
    std::string digits = text.substr(0, text.size() - 1);
    if (digits.empty() || digits.size() > 2 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) return std::nullopt;
    auto hours = std::chrono::hours(std::stoi(digits));
    if (hours.count() <= 0) return std::nullopt;
    return std::chrono::milliseconds(hours);
  }
  auto parsed = config::parse_duration(text);
  if (!parsed || parsed->count() <= 0) return std::nullopt;
  return *parsed;
}

}  // namespace

void add_signal_routes(control::ControlServer& control, PoolService& service) {
  control.put(R"(/signals/([^/]+))", [&service](const httplib::Request& request, httplib::Response& response) {
    std::string name = request.matches[1];
    if (!health::valid_signal_name(name)) {
      return refuse(response, 400, "a signal name is 1 to 64 letters, digits, '.', '_' or '-'");
    }
    json body = json::parse(request.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
      return refuse(response, 400, R"(expected a JSON object like {"state": "down", "ttl": "5m"})");
    }
    auto state = body.contains("state") && body["state"].is_string()
                     ? health::parse_signal_state(body["state"].get<std::string>())
                     : std::nullopt;
    if (!state) return refuse(response, 400, "state: expected \"up\" or \"down\"");
    auto ttl = body.contains("ttl") ? ttl_of(body["ttl"]) : std::nullopt;
    if (!ttl || *ttl > health::kMaxSignalTtl) {
      return refuse(response, 400, "ttl: expected a duration from 1ms to 24h, like 60 (seconds), \"5m\" or \"1h\"; after it the "
                                   "signal counts as unknown");
    }
    for (const auto& [key, value] : body.items()) {
      if (key != "state" && key != "ttl") return refuse(response, 400, key + ": unknown key (expected state, ttl)");
    }
    const base::Clock& clock = service.clock();
    service.signals().set(name, *state, *ttl, clock.now(), clock.wall_now(), "api@" + request.remote_addr);
    control::reply_json(response, 200,
                        json{{"signal", name},
                             {"state", health::signal_state_to_text(*state)},
                             {"ttl_ms", ttl->count()},
                             {"expires_at", format_utc(clock.wall_now() + *ttl)}}
                                .dump() + "\n");
  });
  control.del(R"(/signals/([^/]+))", [&service](const httplib::Request& request, httplib::Response& response) {
    std::string name = request.matches[1];
    if (!service.signals().erase(name)) return refuse(response, 404, "no signal " + name + " is set");
    control::reply_json(response, 200, json{{"signal", name}, {"state", "unknown"}}.dump() + "\n");
  });
  control.get("/signals", [&service](const httplib::Request&, httplib::Response& response) {
    const base::Clock& clock = service.clock();
    auto now = clock.now();
    json list = json::array();
    for (const auto& entry : service.signals().list(now)) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(entry.expires - now);
      list.push_back({{"signal", entry.name},
                      {"state", health::signal_state_to_text(entry.state)},
                      {"expires_in_ms", left.count()},
                      {"set_at", format_utc(entry.set_at)},
                      {"by", entry.who}});
    }
    control::reply_json(response, 200, json{{"signals", list}}.dump(2) + "\n");
  });
}

}  // namespace cutover::pool
