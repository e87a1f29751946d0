// E1: is the record TTL honoured, or clamped by a configured floor or cap? The record is
// changed right after the fill; the cache time is how long the old address is still served.
#include "base/clock.h"
#include "lab/expectations.h"
#include "lab/experiments/common.h"

namespace cutover::lab {

std::vector<CaseSpec> e1_cases(const LabEnv&) {
  struct Row {
    const char* name;
    std::uint32_t ttl;
    CacheSettings cache;
  };
  const Row rows[] = {
      {"ttl5-default", 5, {}},
      {"ttl20-default", 20, {}},
      {"ttl5-floor15", 5, {.ttl_floor = 15}},
      {"ttl20-cap8", 20, {.ttl_cap = 8}},
  };
  std::vector<CaseSpec> specs;
  for (const Row& row : rows) {
    CaseSpec spec{"E1", row.name, {row.cache, {}}, "", nullptr};
    spec.run = [row](CaseContext& context, CaseResult& result) {
      std::string name = context.name("e1-" + std::string(row.name));
      need(context.env.authority->put_rrset(name, "A", row.ttl, {kOldAddress}));
      std::int64_t filled = fill_cache(context, result, name);
      std::int64_t changed = need(context.env.authority->put_rrset(name, "A", row.ttl, {kNewAddress}));
      result.details["record_ttl"] = row.ttl;
      result.details["changed_at"] = base::seconds_between(filled, changed);
      double expected = clamped_ttl(row.ttl, row.cache.ttl_floor, row.cache.ttl_cap);
      result.expected = {point(row.cache.is_default() ? "TTL" : row.cache.label(), expected)};
      watch_for_address(context, result, name, kNewAddress, filled, changed, 0.2, after(filled, expected + 10));
      record_authority_count(context, result, name, "A", "authority_queries");
    };
    specs.push_back(std::move(spec));
  }
  return specs;
}

ExperimentInfo e1_ttl_experiment() { return {"E1", "TTL honoured or clamped", {}, e1_cases}; }

}  // namespace cutover::lab
