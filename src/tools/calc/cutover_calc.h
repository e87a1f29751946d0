// The cutover arithmetic of docs/tools.md ("cutover calc"): cutover = D + P + K + C + R, with detection
// D from the probe interval, fall threshold and timeout, and the resolver cache term K from
// the record TTL as chapter 2's floor, cap and stale window change it. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cutover::tools {

struct CalcInput {
  double interval = 0;      // I: seconds between probes
  int fall = 1;             // F: consecutive failures that mark the endpoint down (>= 1)
  double timeout = 0;       // T: seconds a failing probe waits
  double ttl = 0;           // record TTL as published
  double propagation = 0;   // P: change reaching the authoritative servers
  // C: client cache; infinite (std::numeric_limits<double>::infinity()) for a client that
  // does not re-resolve (Java cache.ttl=-1).
  double client_cache = 0;
  std::string client_profile;  // where C came from, when a profile or a lab client was named
  std::string client_basis;    // runtime, version, setting and the figures C (and R) were read from
  std::string client_source;   // "client terms from the lab run ..." or "... from the paper ..."
  bool client_measured = false;  // C (and R) come from a lab run on this machine
  bool reuse_measured = false;   // R comes from the lab run (E11), not from --reuse
  double connection_reuse = 0;  // R
  std::optional<double> resolver_floor;  // a resolver raises shorter TTLs to this
  std::optional<double> resolver_cap;    // and lowers longer ones to this
  double stale_window = 0;               // serve-stale: an expired copy may be served this long more
  // Remote checkers with a quorum (docs/cluster.md, "Detection with a quorum"): K vantages
  // must say down (0: one checker in the server, no publish term), and L, the checker's
  // publish to etcd plus the server's watch, is added to D's upper bound.
  int quorum = 0;
  double publish_latency = 0;
  bool publish_latency_assumed = false;  // L is the documented default, not a given value
};

struct Term {
  std::string name;  // "detection", "propagation", "resolver cache", "client cache", "connection reuse"
  std::string symbol;
  double low = 0;
  double high = 0;
};

struct CalcResult {
  double detection_min = 0;  // (F - 1) I + T
  double detection_max = 0;  // F I + T (+ L with a quorum)
  double cache_max = 0;      // K_max: the TTL the resolver honours, plus the stale window
  std::vector<Term> terms;   // D, P, K, C, R in that order
  double total_min = 0;      // every cache expired just before the change: D_min + P
  double total_max = 0;      // D_max + P + K_max + C + R
  std::string dominant;      // name of the term with the largest upper bound
  std::vector<std::string> notes;
};

// Fails (returns an error string) on negative inputs or F < 1.
std::optional<std::string> validate(const CalcInput& input);
CalcResult compute_cutover(const CalcInput& input);

std::string calc_to_text(const CalcInput& input, const CalcResult& result);
nlohmann::json calc_to_json(const CalcInput& input, const CalcResult& result);

}  // namespace cutover::tools
