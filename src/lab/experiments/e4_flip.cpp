// E4: cutover after a flip. The cache is filled, the record flipped at 10, 50 or 90 % of its
// TTL, and the time until the new address shows is compared with K = TTL - (flip - fill).
#include "lab/clock.h"
#include "lab/expectations.h"
#include "lab/experiments/common.h"

namespace cutover::lab {

std::vector<CaseSpec> e4_cases(const LabEnv&) {
  struct Row {
    std::uint32_t ttl;
    double phase;
  };
  std::vector<Row> rows = {{0, 0.0}};
  for (std::uint32_t ttl : {3U, 6U, 12U}) {
    for (double phase : {0.1, 0.5, 0.9}) rows.push_back({ttl, phase});
  }
  std::vector<CaseSpec> specs;
  for (const Row& row : rows) {
    std::string label = "ttl" + std::to_string(row.ttl) + "-flip" + std::to_string(static_cast<int>(row.phase * 100));
    CaseSpec spec{"E4", label, {}, "", nullptr};
    spec.run = [row, label](CaseContext& context, CaseResult& result) {
      std::string name = context.name("e4-" + label);
      need(context.env.authority->put_rrset(name, "A", row.ttl, {kOldAddress}));
      std::int64_t filled = fill_cache(context, result, name);
      sleep_until(after(filled, row.phase * row.ttl));
      std::int64_t flipped = need(context.env.authority->put_rrset(name, "A", row.ttl, {kNewAddress}));
      double since_fill = seconds_between(filled, flipped);
      double expected = remaining_ttl(row.ttl, since_fill);
      result.details["record_ttl"] = row.ttl;
      result.details["flip_phase"] = row.phase;
      result.details["flip_after_fill"] = since_fill;
      result.expected = {point("TTL - (flip - fill)", expected)};
      watch_for_address(context, result, name, kNewAddress, flipped, flipped, 0.1, after(flipped, expected + 10));
      record_authority_count(context, result, name, "A", "authority_queries");
    };
    specs.push_back(std::move(spec));
  }
  return specs;
}

ExperimentInfo e4_flip_experiment() { return {"E4", "Cutover after a record flip (cache term K)", {}, e4_cases}; }

}  // namespace cutover::lab
