// Parsing the client programs' per-request log (docs/lab.md, "The per-request log").
#include "lab/clients/request_log.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

const std::vector<std::string>& error_kinds() {
  static const std::vector<std::string> kKinds = {"refused", "timeout", "reset", "tls", "dns", "other"};
  return kKinds;
}

base::Error bad(const std::string& why) { return base::make_error(base::ErrorCode::kMalformed, why); }

double millis(double seconds) { return std::round(seconds * 1000) / 1000; }

}  // namespace

base::Result<RequestLine> parse_request_line(const std::string& text) {
  Json json = Json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return bad("not a JSON object");
  for (const char* key : {"t", "peer", "new_conn", "origin", "error", "detail"}) {
    if (!json.contains(key)) return bad(std::string("no \"") + key + "\"");
  }
  RequestLine line;
  if (!json["t"].is_number()) return bad("\"t\" is not a number");
  line.t = json["t"].get<double>();
  if (!(line.t > 0) || !std::isfinite(line.t)) return bad("\"t\" is not a unix time");
  if (json["peer"].is_string()) {
    line.peer = json["peer"].get<std::string>();
  } else if (!json["peer"].is_null()) {
    return bad("\"peer\" is neither a string nor null");
  }
  if (json["new_conn"].is_boolean()) {
    line.new_conn = json["new_conn"].get<bool>();
  } else if (!json["new_conn"].is_null()) {
    return bad("\"new_conn\" is neither true, false nor null");
  }
  if (json["origin"].is_string()) {
    line.origin = json["origin"].get<std::string>();
  } else if (!json["origin"].is_null()) {
    return bad("\"origin\" is neither a string nor null");
  }
  if (json["error"].is_string()) {
    std::string kind = json["error"].get<std::string>();
    if (std::find(error_kinds().begin(), error_kinds().end(), kind) == error_kinds().end()) {
      return bad("\"error\" is not one of refused, timeout, reset, tls, dns, other");
    }
    line.error = kind;
  } else if (!json["error"].is_null()) {
    return bad("\"error\" is neither a string nor null");
  }
  if (!json["detail"].is_string()) return bad("\"detail\" is not a string");
  line.detail = json["detail"].get<std::string>();
  if (line.error && line.origin) return bad("a request with an error has an origin");
  if (!line.error && !line.origin) return bad("a request without an error has no origin");
  return line;
}

RequestLog parse_request_log(const std::string& text) {
  RequestLog log;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    auto parsed = parse_request_line(line);
    if (parsed) {
      log.requests.push_back(*parsed);
      log.line_of.push_back(static_cast<std::size_t>(number - 1));
    } else {
      log.garbage.push_back(std::to_string(number) + ": " + parsed.error().message + ": " + line.substr(0, 120));
    }
  }
  return log;
}

std::vector<double> parse_seen(const std::string& text) {
  std::vector<double> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(std::strtod(line.c_str(), nullptr));
  return out;
}

std::vector<double> seen_of_requests(const RequestLog& log, const std::vector<double>& seen) {
  std::vector<double> out;
  for (std::size_t i = 0; i < log.requests.size(); ++i) {
    std::size_t line = log.line_of[i];
    out.push_back(line < seen.size() ? seen[line] : log.requests[i].t);
  }
  return out;
}

std::string peer_host(const std::string& peer) {
  if (!peer.empty() && peer.front() == '[') {
    std::size_t close = peer.find(']');
    return close == std::string::npos ? peer : peer.substr(1, close - 1);
  }
  std::size_t colon = peer.rfind(':');
  if (colon == std::string::npos || peer.find(':') != colon) return peer;  // bare IPv6 or no port
  return peer.substr(0, colon);
}

std::vector<Observation> request_observations(const std::vector<RequestLine>& requests, const std::vector<double>& seen,
                                              double reference, RequestClock clock) {
  std::vector<Observation> out;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const RequestLine& line = requests[i];
    double seen_at = i < seen.size() ? seen[i] : line.t;
    Observation observation;
    observation.sent = millis((clock == RequestClock::kStart ? line.t : seen_at) - reference);
    observation.received = millis(seen_at - reference);
    observation.rcode = line.error ? *line.error : "NOERROR";
    if (line.origin) observation.answer = {*line.origin};
    out.push_back(observation);
  }
  return out;
}

Json following_details(const std::vector<Observation>& observations, const std::string& old_origin, double after) {
  int errors = 0, old_after = 0;
  std::optional<double> last_old;
  std::map<std::string, int> per_origin;
  for (const auto& observation : observations) {
    if (observation.rcode != "NOERROR") {
      ++errors;
      continue;
    }
    for (const auto& origin : observation.answer) {
      ++per_origin[origin];
      if (origin != old_origin) continue;
      if (!last_old || observation.sent > *last_old) last_old = observation.sent;
      if (observation.sent > after) ++old_after;
    }
  }
  Json out = {{"requests", observations.size()}, {"errors", errors}, {"per_origin", per_origin},
              {"old_after_change", old_after}};
  out["last_old"] = last_old ? Json(*last_old) : Json(nullptr);
  return out;
}

}  // namespace cutover::lab

namespace cutover::lab {
namespace {

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool close_enough(double a, double b) { return std::abs(a - b) < 1e-6; }

}  // namespace

std::vector<std::string> client_log_problems(const std::string& dir, const CaseResult& stored, const std::string& where) {
  if (!stored.details.contains("client_log")) return {};
  std::vector<std::string> problems;
  auto log_text = read_text(dir + "/" + stored.details["client_log"].get<std::string>());
  auto seen_text = read_text(dir + "/" + stored.details.value("client_seen", ""));
  if (!log_text || !seen_text) return {where + ": cannot read its raw client log"};
  RequestLog log = parse_request_log(*log_text);
  RequestClock clock = stored.details.value("request_clock", "start") == "outcome" ? RequestClock::kOutcome : RequestClock::kStart;
  std::vector<Observation> derived = request_observations(log.requests, seen_of_requests(log, parse_seen(*seen_text)),
                                                          stored.details.value("reference_unix", 0.0), clock);
  if (derived.size() != stored.observations.size()) {
    problems.push_back(where + ": the raw client log has " + std::to_string(derived.size()) + " requests, results.json " +
                       std::to_string(stored.observations.size()));
    return problems;
  }
  for (std::size_t i = 0; i < derived.size(); ++i) {
    const Observation& a = derived[i];
    const Observation& b = stored.observations[i];
    if (!close_enough(a.sent, b.sent) || !close_enough(a.received, b.received) || a.rcode != b.rcode || a.answer != b.answer) {
      problems.push_back(where + ": request " + std::to_string(i + 1) + " does not follow from the raw client log");
      break;
    }
  }
  return problems;
}

}  // namespace cutover::lab
