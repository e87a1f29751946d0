// CaseResult: one measured case of one experiment on one resolver, with every raw observation,
// and the arithmetic that turns observations into a measured value, a delta and a verdict.
// The same derive/judge functions run when measuring and when checking a saved results.json,
// so a report can always be re-derived from its raw data. Plain values; thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cutover::lab {

// One poll of the resolver. Times are seconds relative to the case's reference moment.
struct Observation {
  double sent = 0;
  double received = 0;
  std::string rcode;                // "NOERROR", "NXDOMAIN", ... or "TIMEOUT"/"ERROR"
  std::vector<std::string> answer;  // rdata text of the answer RRs of the asked type
  std::optional<std::uint32_t> ttl;  // answer TTL, or the SOA TTL of a negative reply
};

// The client response timer of RFC 8767 §5 (1.8 s): how long a stub waits for a reply before it
// gives up on a poll. `cutover lab run --client-timeout` sets it (docs/lab.md, "Client view").
constexpr double kDefaultClientTimeout = 1.8;

// How a client with a response timer sees one poll: answered in time, answered only after
// the timer ran out (the reply is kept, but for the client the poll timed out), or failed
// (no answer at all: an error rcode, an empty answer, a timeout of the lab's own wait).
enum class ClientView { kInTime, kLate, kFailed };
// Without a client timeout (nullopt, a results.json from before the client view) every
// answer is in time.
ClientView client_view(const Observation& observation, std::optional<double> client_timeout);
// One letter per poll: 'o' answered in time, 's' answered after the client timeout, 'x' failed.
char client_letter(ClientView view);
std::string client_pattern(const std::vector<Observation>& observations, std::optional<double> client_timeout);

// An expected value: a point (low == high) or a range, with a label ("parent", "RFC 9520").
// `never`: the expected outcome is that no observation qualifies within the case's window
// (a client that keeps an address forever); low and high are then unused.
struct Expectation {
  std::string label;
  double low = 0;
  double high = 0;
  bool never = false;
};

struct Tolerance {
  double below = -1.2;
  double above = 1.5;
};

// Which observation the measured value is read from.
enum class Rule {
  kFirstAnswer,  // first poll whose answer holds `rule_value`
  kFirstOk,      // first NOERROR poll with an answer
  kLastOk,       // last NOERROR poll with an answer
  // first poll sent at or after the reference (sent >= 0) whose answer holds `rule_value`
  // (E12: the first request that reached the live origin after the other one stopped)
  kFirstAnswerAfter,
};
std::string rule_to_text(Rule rule);
std::optional<Rule> rule_from_text(const std::string& text);

enum class Verdict { kPass, kFail, kNotSupported, kError };
std::string verdict_to_text(Verdict verdict);
std::optional<Verdict> verdict_from_text(const std::string& text);

struct CaseResult {
  std::string resolver;
  std::string version;
  std::string experiment;  // "E1"
  std::string name;        // unique within the experiment and resolver, e.g. "ttl5-default"
  std::string config;      // the resolver configuration label
  std::string variant;     // --resolver-option lines of the configuration, empty for the default one
  std::string instance;    // the resolver instance it ran on (its configuration is in the run's resolvers)
  std::vector<Expectation> expected;
  Tolerance tolerance;
  Rule rule = Rule::kFirstAnswer;
  std::string rule_value;
  std::optional<double> measured;
  std::optional<double> delta;
  std::string matched;  // label of the expectation the delta is taken against
  Verdict verdict = Verdict::kError;
  std::string note;      // why not supported, what failed, or what a finding means
  std::string log_tail;  // of the resolver, when the case could not be measured
  double fill_phase = -1;  // realtime fraction of a second at the cache fill (-1: none)
  double window = 0;      // how long the polls ran, seconds after the reference
  // The client timeout every poll is judged by (seconds); nullopt: none (older results.json).
  std::optional<double> client_timeout;
  nlohmann::json details = nlohmann::json::object();  // experiment-specific facts
  std::vector<Observation> observations;
  // With `--repeat N` (N > 1): every run of the case, the first one included, each a full
  // result of its own (no nested runs). The fields above are the first run's.
  std::vector<CaseResult> runs;
};

// The spread of a repeated case's measured value and whether its verdict held.
struct Spread {
  int runs = 0;
  int measured_runs = 0;  // runs with a measured value (the min/median/max are over these)
  std::optional<double> min;
  std::optional<double> median;  // the middle value; the mean of the two middle ones for an even count
  std::optional<double> max;
  int passed = 0;        // runs whose verdict is pass
  bool unstable = false;  // the verdict differs between runs
};
Spread spread_of(const std::vector<CaseResult>& runs);

// The measured value by the case's rule, or nullopt when no observation qualifies. Only
// polls answered within the case's client timeout qualify (client_view).
std::optional<double> derive_measured(const CaseResult& result);
// Fills measured, delta, matched and verdict from the observations (for measurable cases).
void judge(CaseResult& result);
// Signed distance from `measured` to an expectation (0 inside a range).
double distance_to(const Expectation& expectation, double measured);

nlohmann::json to_json(const Observation& observation);
Observation observation_from_json(const nlohmann::json& json);
nlohmann::json to_json(const CaseResult& result);
CaseResult case_from_json(const nlohmann::json& json);

}  // namespace cutover::lab
