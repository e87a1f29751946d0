// Shared experiment steps: phased cache fill, address watch, authority query counts.
#include "lab/experiments/common.h"

#include "base/clock.h"
#include "lab/probe.h"

namespace cutover::lab {

std::int64_t fill_cache(CaseContext& context, CaseResult& result, const std::string& name, dns::RRType type) {
  base::sleep_until_phase(kFillPhase, 50'000'000);
  std::int64_t sent = base::monotonic_ns();
  result.fill_phase = base::realtime_phase();
  Observation reply = ask(context.resolver.address(), name, type, sent);
  if (reply.rcode == "TIMEOUT" || reply.rcode == "ERROR") {
    throw LabError("the cache fill of " + name + " got no reply (" + reply.rcode + ")");
  }
  result.details["fill"] = {{"rcode", reply.rcode}, {"answer", reply.answer}, {"ttl", reply.ttl ? *reply.ttl : 0},
                            {"round_trip", reply.received}};
  return after(sent, reply.received);
}

void watch_for_address(CaseContext& context, CaseResult& result, const std::string& name, const std::string& address,
                       std::int64_t reference_ns, std::int64_t first_ns, double step, std::int64_t end_ns) {
  // The lab waits 1 s past the client timeout, so a late reply is kept with its latency
  // (it does not count as the answer: client_view).
  double wait = result.client_timeout.value_or(kDefaultClientTimeout) + 1.0;
  PollPlan plan{name, dns::RRType::A, reference_ns, first_ns, step, end_ns,
                std::chrono::milliseconds(static_cast<std::int64_t>(wait * 1000))};
  auto observations = poll_until(context.resolver.address(), plan, [&](const Observation& observation) {
    return observation.rcode == "NOERROR" &&
           std::find(observation.answer.begin(), observation.answer.end(), address) != observation.answer.end();
  });
  result.observations.insert(result.observations.end(), observations.begin(), observations.end());
  result.rule = Rule::kFirstAnswer;
  result.rule_value = address;
  result.window = base::seconds_between(reference_ns, end_ns);
}

void record_authority_count(CaseContext& context, CaseResult& result, const std::string& name,
                            const std::string& type, const std::string& key) {
  auto count = context.env.authority->count(name, type);
  if (count) result.details[key] = *count;
}

Expectation point(const std::string& label, double value) { return {label, value, value}; }

}  // namespace cutover::lab
