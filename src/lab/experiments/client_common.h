// What the client experiments (E6, E7, E11) share: one case per client of the run and
// variant, run in its own ClientCase (lab/clients/client_case.h); the checks before a case
// (root, the resolver, the runtime), the expected values that follow from a runtime's
// documented cache, and the report's cells. Thread-safe (per-case state only).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lab/clients/client_case.h"
#include "lab/clients/suite.h"
#include "lab/experiments/experiment.h"

namespace cutover::lab {

constexpr double kClientInterval = 0.5;  // seconds between requests (E6, E11)
constexpr std::uint32_t kClientTtl = 2;  // the record TTL of E6 and E11
// The change comes this long after the client's first request: 3.5 s, plus half an interval
// so that it falls midway between two request slots.
constexpr double kChangeAfterFirst = 3.5 + kClientInterval / 2;
constexpr const char* kOldOrigin = "a";
constexpr const char* kNewOrigin = "b";

// Runs one variant of a client experiment for one client inside an open ClientCase: starts
// the client, drives the change, records observations, expectations and details. Throws
// LabError when the lab itself fails.
struct ClientCaseBody {
  std::function<ClientCaseSetup(const ClientAdapter& client)> setup;
  std::function<void(ClientCase& world, ClientSuite& suite, const ClientSuite::Client& client, CaseResult& result)> run;
};

struct ClientVariant {
  std::string name;  // appended to the client id in the case name ("" for none)
  ClientCaseBody body;
};

// One CaseSpec per (client of the run, variant); none when this resolver has no clients.
std::vector<CaseSpec> client_case_specs(const LabEnv& env, const std::string& experiment,
                                        const std::vector<ClientVariant>& variants);

// When a client that looks the name up at its first request and then caches it as `cache`
// says should reach the record that changed `since_first` seconds after that request
// (seconds after the change): the resolver's TTL plus one interval with no cache of its own,
// the rest of the cache's lifetime plus one interval with one, never when it caches forever.
Expectation following_expectation(const ClientCache& cache, double since_first, double ttl, double interval);

// The same for a name repaired after NXDOMAIN: the negative TTL plus one interval, or the
// rest of the runtime's own negative cache.
Expectation repair_expectation(const ClientCache& cache, double since_first, double negative_ttl, double interval);

// Starts the client and waits for its first request line (or throws LabError with its log).
double start_and_wait_first(ClientCase& world, ClientSuite& suite, const ClientSuite::Client& client,
                            const ClientInvocation& run);

// Sleeps until unix time `at`.
void sleep_until_unix(double at);

// The report cells every client table shares.
std::string client_runtime_cell(const CaseResult& result);
std::string client_version_cell(const CaseResult& result);
std::string client_setting_cell(const CaseResult& result);
// Measured/Pass, or why the case did not run.
std::string client_pass_cell(const CaseResult& result);

// E6's and E11's "Last old": the last request that reached the old origin (details.following),
// seconds after the change; nullopt when none or not measured.
std::optional<double> last_old_of(const CaseResult& result);
// Their "First new": the measured value, "none" when the client ran but never got there, "—"
// when it did not run.
std::string first_new_cell(const CaseResult& result);

// report.html's figure of E6 and E11: one row per case, one mark per request at its time after
// the change (x), coloured by the origin that served it (a grey, b blue, an error red), the
// change at 0 and the measured switch marked; "" when no case of `experiment` has requests.
std::string client_timeline_svg(const RunResults& results, const std::string& experiment, const std::string& title);

// The facts E6 and E11 add from the observations alone (ExperimentReport::derive_details).
void derive_following_details(CaseResult& result);

}  // namespace cutover::lab
