// E9: the failure cache. The authority fails for a name (SERVFAIL, or silence), the resolver is
// asked once and fails, the authority is healed at once, and the time until the resolver
// answers again is how long it remembered the failure. RFC 9520: at least 1 s, at most 5 min.
#include <fmt/format.h>

#include "base/clock.h"
#include "lab/experiments/common.h"
#include "lab/probe.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

constexpr double kWatch = 65;  // seconds; a longer failure cache is reported as not observed

void run_failure(const std::string& mode, const std::string& label, CaseContext& context, CaseResult& result) {
  std::string name = context.name("e9-" + label);
  auto& authority = *context.env.authority;
  need(authority.put_rrset(name, "A", 60, {kOldAddress}));
  need(authority.set_outage("name", name, mode));
  base::sleep_until_phase(kFillPhase, 50'000'000);
  std::int64_t asked = base::monotonic_ns();
  result.fill_phase = base::realtime_phase();
  Observation failure = ask(context.resolver.address(), name, dns::RRType::A, asked, std::chrono::milliseconds(15000));
  std::int64_t healed = need(authority.set_outage("name", name, "none"));
  result.details["outage"] = mode;
  result.details["failed_reply"] = {{"rcode", failure.rcode}, {"after", failure.received}};
  result.details["queries_during_outage"] = need(authority.count(name, "A"));
  if (failure.rcode == "NOERROR" && !failure.answer.empty()) throw LabError("the resolver answered despite the outage");
  result.expected = {{"RFC 9520", 1, 300}};
  watch_for_address(context, result, name, kOldAddress, healed, healed, 0.2, after(healed, kWatch));
  result.rule = Rule::kFirstOk;
  record_authority_count(context, result, name, "A", "authority_queries");
}


using Json = nlohmann::json;

// The Details cell: the failed reply, when it came, and the queries the outage drew.
std::string e9_details(const CaseResult& result, const std::string&) {
  const Json& details = result.details;
  return fmt::format("failed reply {} after {:.2f} s, {} queries during outage, {} in all",
                     details["failed_reply"].value("rcode", "?"), details["failed_reply"].value("after", 0.0),
                     details.value("queries_during_outage", 0), details.value("authority_queries", 0));
}

}  // namespace

std::vector<CaseSpec> e9_cases(const LabEnv&) {
  std::vector<CaseSpec> specs;
  for (const char* mode : {"servfail", "drop"}) {
    std::string label = mode;
    specs.push_back({"E9", label, {}, "e9-" + label, [label](CaseContext& context, CaseResult& result) {
                       run_failure(label, label, context, result);
                     }});
  }
  return specs;
}

ExperimentInfo e9_failure_cache_experiment() { return {"E9", "Failure cache (RFC 9520)", {}, e9_cases, {e9_details, nullptr}}; }

}  // namespace cutover::lab
