// E5: the old answer's life after a change when the TTL (20 s) was never lowered, lowered to
// 2 s just before the change, or lowered one old TTL ahead (then the entry was waited out and
// refilled once, so the change meets a 2 s entry).
#include "base/clock.h"
#include "lab/expectations.h"
#include "lab/experiments/common.h"

namespace cutover::lab {
namespace {

constexpr std::uint32_t kOldTtl = 20;
constexpr std::uint32_t kNewTtl = 2;

enum class Mode { kBaseline, kLate, kAhead };

void run_mode(Mode mode, const std::string& label, CaseContext& context, CaseResult& result) {
  std::string name = context.name("e5-" + label);
  auto& authority = *context.env.authority;
  need(authority.put_rrset(name, "A", kOldTtl, {kOldAddress}));
  std::int64_t filled = fill_cache(context, result, name);
  std::int64_t changed = 0;
  double expected = 0;
  if (mode == Mode::kBaseline) {
    base::sleep_until(after(filled, 1));
    changed = need(authority.put_rrset(name, "A", kOldTtl, {kNewAddress}));
    expected = remaining_ttl(kOldTtl, base::seconds_between(filled, changed));
  } else if (mode == Mode::kLate) {
    base::sleep_until(after(filled, 1));
    std::int64_t lowered = need(authority.put_rrset(name, "A", kNewTtl, {kOldAddress}));
    base::sleep_until(after(filled, 2));
    changed = need(authority.put_rrset(name, "A", kNewTtl, {kNewAddress}));
    result.details["lowered_before_change"] = base::seconds_between(lowered, changed);
    expected = remaining_ttl(kOldTtl, base::seconds_between(filled, changed));
  } else {
    std::int64_t lowered = need(authority.put_rrset(name, "A", kNewTtl, {kOldAddress}));
    // Wait out the 20 s entry (plus the second a resolver may keep it), then one refill query.
    base::sleep_until(after(filled, kOldTtl + 1.5));
    nlohmann::json first_fill = result.details["fill"];
    std::int64_t refilled = fill_cache(context, result, name);
    result.details["refill"] = result.details["fill"];
    result.details["fill"] = first_fill;
    base::sleep_until(after(refilled, 0.5));
    changed = need(authority.put_rrset(name, "A", kNewTtl, {kNewAddress}));
    result.details["lowered_before_change"] = base::seconds_between(lowered, changed);
    expected = remaining_ttl(kNewTtl, base::seconds_between(refilled, changed));
  }
  result.details["change_after_fill"] = base::seconds_between(filled, changed);
  result.expected = {point("remaining TTL", expected)};
  watch_for_address(context, result, name, kNewAddress, changed, changed, 0.1, after(changed, expected + 10));
}

}  // namespace

std::vector<CaseSpec> e5_cases(const LabEnv&) {
  std::vector<CaseSpec> specs;
  const std::pair<Mode, const char*> modes[] = {{Mode::kBaseline, "baseline"}, {Mode::kLate, "late"}, {Mode::kAhead, "ahead"}};
  for (const auto& entry : modes) {
    Mode mode = entry.first;  // a named copy: clang 14 cannot capture a structured binding
    std::string name = entry.second;
    specs.push_back({"E5", name, {}, "", [mode, name](CaseContext& context, CaseResult& result) {
                       run_mode(mode, name, context, result);
                     }});
  }
  return specs;
}

ExperimentInfo e5_lowering_experiment() { return {"E5", "TTL lowered late vs one old TTL ahead", {}, e5_cases}; }

}  // namespace cutover::lab
