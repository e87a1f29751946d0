// E3: serve-stale during an authoritative outage. A 5 s record is filled, the authority stops
// answering for it at once (drop, REFUSED or SERVFAIL), and the resolver is asked once a second
// by free-running polls. Expected last success: the TTL, or TTL + window with serve-stale.
// Each case has a resolver instance of its own: outages change a resolver's view of the server.
#include "lab/clock.h"
#include "lab/expectations.h"
#include "lab/experiments/common.h"
#include "lab/probe.h"

namespace cutover::lab {
namespace {

constexpr std::uint32_t kTtl = 5;
constexpr std::uint32_t kWindow = 15;

// Summary facts of the poll log: first failure, counts, pattern, stale TTLs, slowest failure.
void summarise(CaseResult& result) {
  std::string pattern;
  int ok = 0;
  int failed = 0;
  double slowest_failure = 0;
  nlohmann::json first_failure = nullptr;
  nlohmann::json stale_ttls = nlohmann::json::array();
  for (const auto& observation : result.observations) {
    bool answered = observation.rcode == "NOERROR" && !observation.answer.empty();
    pattern += answered ? 'o' : 'x';
    if (answered) {
      ++ok;
      if (observation.sent > kTtl && observation.ttl) stale_ttls.push_back(*observation.ttl);
    } else {
      ++failed;
      if (first_failure.is_null()) first_failure = std::round(observation.sent * 1000) / 1000;
      slowest_failure = std::max(slowest_failure, observation.received - observation.sent);
    }
  }
  result.details["pattern"] = pattern;
  result.details["ok"] = ok;
  result.details["failed"] = failed;
  result.details["first_failure"] = first_failure;
  result.details["stale_ttls"] = stale_ttls;
  result.details["slowest_failure_ms"] = std::round(slowest_failure * 1000);
}

void run_outage(const std::string& mode, bool stale, const std::string& label, CaseContext& context,
                CaseResult& result) {
  std::string name = context.name("e3-" + label);
  auto& authority = *context.env.authority;
  need(authority.put_rrset(name, "A", kTtl, {kOldAddress}));
  std::int64_t filled = fill_cache(context, result, name);
  std::int64_t outage = need(authority.set_outage("name", name, mode));
  result.details["outage"] = mode;
  result.details["outage_at"] = seconds_between(filled, outage);
  double expected = last_answer(kTtl, stale ? std::optional<std::uint32_t>(kWindow) : std::nullopt);
  result.expected = {point(stale ? "TTL + window" : "TTL", expected)};
  double window = expected + 8;
  PollPlan plan{name, dns::RRType::A, filled, after(filled, 1), 1.0, after(filled, window), std::chrono::milliseconds(12000)};
  result.observations = poll_every(context.resolver.address(), plan);
  result.rule = Rule::kLastOk;
  result.window = window;
  record_authority_count(context, result, name, "A", "authority_queries");
  need(authority.set_outage("name", name, "none"));
  summarise(result);
}

}  // namespace

std::vector<CaseSpec> e3_cases(const LabEnv&) {
  std::vector<CaseSpec> specs;
  for (const char* mode : {"drop", "refuse", "servfail"}) {
    for (bool stale : {false, true}) {
      std::string label = std::string(mode) + (stale ? "-stale15" : "-default");
      CacheSettings cache;
      if (stale) cache.stale_window = kWindow;
      specs.push_back({"E3", label, {cache, {}}, label, [mode = std::string(mode), stale, label](CaseContext& context,
                                                                                                CaseResult& result) {
                         run_outage(mode, stale, label, context, result);
                       }});
    }
  }
  return specs;
}

ExperimentInfo e3_stale_experiment() { return {"E3", "Serve-stale during an authoritative outage", {}, e3_cases}; }

}  // namespace cutover::lab
