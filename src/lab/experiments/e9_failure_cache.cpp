// E9: the failure cache. The authority fails for a name (SERVFAIL, or silence), the resolver is
// asked once and fails, the authority is healed, and the time from the failed reply until the
// resolver answers again is how long it remembered the failure. RFC 9520: at least 1 s, at
// most 5 min.
//
// The reference is the failed reply, not the heal: the resolver stores the failure when it
// gives up, just before it replies, so its memory runs from then whatever the lab does next.
// Measuring from the heal (as the lab first did) subtracts the time the heal took: a heal that
// takes ~1 s under load makes BIND's 1 s servfail-ttl look like no failure cache at all (issue
// 14). The `-heal-late` cases heal 0.5 s after the failed reply on purpose, so a method that
// depends on the heal's moment shows it. When the first poll after a heal already gets the
// answer, the memory was shorter than the heal came: a heal slower than kPromptHeal is retried
// under a fresh name, and one that stays slow leaves only an upper bound, which the details say.
#include <cmath>
#include <future>

#include <fmt/format.h>

#include "base/clock.h"
#include "lab/experiments/common.h"
#include "lab/probe.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

constexpr double kWatch = 65;        // seconds; a longer failure cache is reported as not observed
constexpr double kPromptHeal = 0.1;  // seconds from the failed reply; a slower heal may hide a short memory
constexpr double kLateHeal = 0.5;    // the -heal-late cases' heal, seconds after the failed reply
constexpr int kAttempts = 3;

void run_failure(const std::string& mode, const std::string& label, double heal_delay, CaseContext& context,
                 CaseResult& result) {
  auto& authority = *context.env.authority;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    std::string name = context.name("e9-" + label + (attempt > 1 ? "-a" + std::to_string(attempt) : ""));
    need(authority.put_rrset(name, "A", 60, {kOldAddress}));
    need(authority.set_outage("name", name, mode));
    base::sleep_until_phase(kFillPhase, 50'000'000);
    std::int64_t asked = base::monotonic_ns();
    result.fill_phase = base::realtime_phase();
    Observation failure = ask(context.resolver.address(), name, dns::RRType::A, asked, std::chrono::milliseconds(15000));
    std::int64_t failed_at = after(asked, failure.received);
    if (heal_delay > 0) base::sleep_until(after(failed_at, heal_delay));
    std::int64_t healed = need(authority.set_outage("name", name, "none"));
    double heal_after = base::seconds_between(failed_at, healed);
    result.details["outage"] = mode;
    result.details["failed_reply"] = {{"rcode", failure.rcode}, {"after", failure.received}};
    result.details["heal_after_failure"] = std::round(heal_after * 1000) / 1000;
    result.details["attempts"] = attempt;
    result.details["queries_during_outage"] = need(authority.count(name, "A"));
    if (failure.rcode == "NOERROR" && !failure.answer.empty()) throw LabError("the resolver answered despite the outage");
    result.expected = {{"RFC 9520", 1, 300}};
    result.observations.clear();
    // What the resolver holds while it still remembers the failure (its cached failure entry,
    // docs/lab.md "Resolver introspection"), read beside the first polls so they are not delayed.
    std::future<nlohmann::json> during = std::async(std::launch::async, [&context, name] {
      return context.env.adapter->introspect(context.resolver.dir(), {name});
    });
    watch_for_address(context, result, name, kOldAddress, failed_at, healed, 0.2, after(healed, kWatch));
    if (!context.env.adapter->external()) result.details["introspection_at_heal"] = during.get();
    result.rule = Rule::kFirstOk;
    record_authority_count(context, result, name, "A", "authority_queries");
    bool answered_at_heal = !result.observations.empty() &&
                            client_view(result.observations.front(), result.client_timeout) == ClientView::kInTime;
    result.details["upper_bound"] = answered_at_heal && heal_after > kPromptHeal;
    if (!answered_at_heal || heal_after <= kPromptHeal || heal_delay > 0) return;
  }
}

using Json = nlohmann::json;

// The Details cell: the failed reply, when it came, and the queries the outage drew.
std::string e9_details(const CaseResult& result, const std::string&) {
  const Json& details = result.details;
  std::string out = fmt::format("failed reply {} after {:.2f} s, healed {:.3f} s later, {} queries during outage, {} in all",
                                details["failed_reply"].value("rcode", "?"), details["failed_reply"].value("after", 0.0),
                                details.value("heal_after_failure", 0.0), details.value("queries_during_outage", 0),
                                details.value("authority_queries", 0));
  if (details.value("attempts", 1) > 1) out += fmt::format(", attempt {}", details.value("attempts", 1));
  if (details.value("upper_bound", false)) out += "; answered at the first poll after the heal: the memory is at most this";
  return out;
}

}  // namespace

std::vector<CaseSpec> e9_cases(const LabEnv&) {
  std::vector<CaseSpec> specs;
  for (const char* mode : {"servfail", "drop"}) {
    for (double heal_delay : {0.0, kLateHeal}) {
      std::string label = std::string(mode) + (heal_delay > 0 ? "-heal-late" : "");
      specs.push_back({"E9", label, {}, "e9-" + label,
                       [mode = std::string(mode), label, heal_delay](CaseContext& context, CaseResult& result) {
                         run_failure(mode, label, heal_delay, context, result);
                       }});
    }
  }
  return specs;
}

ExperimentInfo e9_failure_cache_experiment() { return {"E9", "Failure cache (RFC 9520)", {}, e9_cases, {e9_details, nullptr}}; }

}  // namespace cutover::lab
