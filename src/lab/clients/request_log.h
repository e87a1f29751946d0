// The per-request log every client program prints (one JSON object per line on stdout):
// {"t": unix seconds at the request's start, "peer": "IP:PORT" | "[IPv6]:PORT" | null,
//  "new_conn": bool | null, "origin": identity from the body | null,
//  "error": null | "refused" | "timeout" | "reset" | "tls" | "dns" | "other", "detail": text}.
// Parsing it, turning it into the lab's observations, and the values E6, E7 and E11 read from
// it, so `cutover lab check` re-derives them from the raw files. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "lab/case_result.h"

namespace cutover::lab {

struct RequestLine {
  double t = 0;
  std::optional<std::string> peer;
  std::optional<bool> new_conn;
  std::optional<std::string> origin;
  std::optional<std::string> error;
  std::string detail;
};

// One line of the log, or why it is not one (a message without the line number).
base::Result<RequestLine> parse_request_line(const std::string& text);

// A whole log: the request lines in order, and every line that is not one ("3: not JSON").
struct RequestLog {
  std::vector<RequestLine> requests;
  std::vector<std::size_t> line_of;  // the 0-based line of the text each request came from
  std::vector<std::string> garbage;
};
RequestLog parse_request_log(const std::string& text);

// The lab's sidecar of a log: one unix time per line of the log (when the lab read it).
std::vector<double> parse_seen(const std::string& text);
// `seen` (per log line) picked for each request of `log`.
std::vector<double> seen_of_requests(const RequestLog& log, const std::vector<double>& seen);

// The host of a peer text ("127.0.0.2:80" -> "127.0.0.2", "[2001:db8::2]:80" -> "2001:db8::2").
std::string peer_host(const std::string& peer);

// Which time of a request an observation carries as `sent`.
enum class RequestClock {
  kStart,    // the request's own `t` (E6, E11: when it was sent)
  kOutcome,  // when the lab saw its line, i.e. when its outcome was known (E7: elapsed)
};

// One observation per request: sent/received relative to `reference` (unix seconds), rcode
// "NOERROR" for an answered request or the error kind ("refused", ...), answer {origin}.
// `seen` holds when the lab read each line (unix seconds), index for index.
std::vector<Observation> request_observations(const std::vector<RequestLine>& requests, const std::vector<double>& seen,
                                              double reference, RequestClock clock);

// The facts E6 and E11 report beside the measured value, from the observations alone:
// requests, errors, requests per origin, the last request that reached `old_origin` (seconds
// after the reference, null when none), and how many requests reached it after `after`.
nlohmann::json following_details(const std::vector<Observation>& observations, const std::string& old_origin,
                                 double after);

}  // namespace cutover::lab

namespace cutover::lab {
// For a client case of a saved run in `dir`: what does not follow from its raw logs (the
// observations re-derived from details.client_log and client_seen with its reference and
// clock), prefixed by `where`. Empty when consistent or when the case has no raw log.
std::vector<std::string> client_log_problems(const std::string& dir, const CaseResult& stored, const std::string& where);
}  // namespace cutover::lab
