// E2: negative caching. A name is asked before it exists (NXDOMAIN), created at once, and the
// time until the resolver shows it is the negative cache time: min(SOA TTL, MINIMUM) or the
// resolver's cap. Each case has its own zone, so each has its own SOA. Also: NODATA scope
// (an AAAA NODATA must not hide the A) and the create-before-lookup control.
#include "base/clock.h"
#include "lab/expectations.h"
#include "lab/experiments/common.h"
#include "lab/probe.h"

namespace cutover::lab {
namespace {

constexpr const char* kCreated = "192.0.2.20";

struct NegativeRow {
  const char* name;
  std::uint32_t soa_ttl;
  std::uint32_t minimum;
  bool uncapped;
  CacheSettings cache;
};

void run_negative(const NegativeRow& row, CaseContext& context, CaseResult& result) {
  std::string zone = context.name("e2-" + std::string(row.name));
  std::string name = "new." + zone;
  need(context.env.authority->put_zone(zone, row.soa_ttl, row.minimum, {.uncapped_negative = row.uncapped}));
  std::int64_t filled = fill_cache(context, result, name);
  if (result.details["fill"]["rcode"] != "NXDOMAIN") throw LabError("the first lookup of " + name + " was not NXDOMAIN");
  std::int64_t created = need(context.env.authority->put_rrset(name, "A", 60, {kCreated}));
  double expected = negative_ttl(row.soa_ttl, row.minimum, row.cache.negative_cap);
  result.details["soa_ttl"] = row.soa_ttl;
  result.details["minimum"] = row.minimum;
  result.details["reply_mode"] = row.uncapped ? "uncapped" : "capped";
  result.details["created_at"] = base::seconds_between(filled, created);
  result.expected = {point(row.cache.negative_cap ? "cap" : "min(TTL, MIN)", expected)};
  double longest = std::max<double>(row.soa_ttl, expected);
  watch_for_address(context, result, name, kCreated, filled, created, 0.2, after(filled, longest + 10));
  record_authority_count(context, result, name, "A", "authority_queries");
}

// An AAAA NODATA for a name that has an A must not hide the A (RFC 2308: NODATA is per type).
void run_nodata_scope(CaseContext& context, CaseResult& result) {
  std::string zone = context.name("e2-nodata-scope");
  std::string name = "host." + zone;
  need(context.env.authority->put_zone(zone, 30, 6));
  need(context.env.authority->put_rrset(name, "A", 60, {kCreated}));
  std::int64_t filled = fill_cache(context, result, name, dns::RRType::AAAA);
  if (result.details["fill"]["rcode"] != "NOERROR") throw LabError("the AAAA lookup of " + name + " was not NODATA");
  result.expected = {point("A not hidden", 0)};
  watch_for_address(context, result, name, kCreated, filled, filled, 0.2, after(filled, 16));
}

// The AAAA created right after its NODATA stays hidden for the negative TTL (6 s here).
void run_nodata_hides(CaseContext& context, CaseResult& result) {
  std::string zone = context.name("e2-nodata-aaaa");
  std::string name = "host." + zone;
  need(context.env.authority->put_zone(zone, 30, 6));
  need(context.env.authority->put_rrset(name, "A", 60, {kCreated}));
  std::int64_t filled = fill_cache(context, result, name, dns::RRType::AAAA);
  std::int64_t created = need(context.env.authority->put_rrset(name, "AAAA", 60, {"2001:db8::20"}));
  result.details["created_at"] = base::seconds_between(filled, created);
  result.expected = {point("min(TTL, MIN)", negative_ttl(30, 6, std::nullopt))};
  PollPlan plan{name, dns::RRType::AAAA, filled, created, 0.2, after(filled, 40), std::chrono::milliseconds(1000)};
  result.observations = poll_until(context.resolver.address(), plan, [](const Observation& observation) {
    return observation.rcode == "NOERROR" && !observation.answer.empty();
  });
  result.rule = Rule::kFirstOk;
  result.window = 40;
}

// Control: a name created before anyone asks is visible on the first lookup.
void run_create_first(CaseContext& context, CaseResult& result) {
  std::string zone = context.name("e2-create-first");
  std::string name = "new." + zone;
  need(context.env.authority->put_zone(zone, 30, 6));
  std::int64_t created = need(context.env.authority->put_rrset(name, "A", 60, {kCreated}));
  base::sleep_until_phase(kFillPhase, 50'000'000);
  std::int64_t first = base::monotonic_ns();
  result.fill_phase = base::realtime_phase();
  result.details["created_before"] = base::seconds_between(created, first);
  result.expected = {point("visible at once", 0)};
  watch_for_address(context, result, name, kCreated, first, first, 0.2, after(first, 10));
}

}  // namespace

std::vector<CaseSpec> e2_cases(const LabEnv&) {
  const NegativeRow rows[] = {
      {"soa8-min8-capped", 8, 8, false, {}},        {"soa30-min6-capped", 30, 6, false, {}},
      {"soa30-min6-uncapped", 30, 6, true, {}},     {"soa60-min6-uncapped", 60, 6, true, {}},
      {"soa20-min20-neg3", 20, 20, false, {.negative_cap = 3}},
  };
  std::vector<CaseSpec> specs;
  for (const NegativeRow& row : rows) {
    specs.push_back({"E2", row.name, {row.cache, {}}, "",
                     [row](CaseContext& context, CaseResult& result) { run_negative(row, context, result); }});
  }
  specs.push_back({"E2", "nodata-scope", {}, "", run_nodata_scope});
  specs.push_back({"E2", "nodata-hides-aaaa", {}, "", run_nodata_hides});
  specs.push_back({"E2", "create-before-lookup", {}, "", run_create_first});
  return specs;
}

ExperimentInfo e2_negative_experiment() { return {"E2", "Negative caching", {}, e2_cases}; }

}  // namespace cutover::lab
