// Runbook: the dated change plan and checklist of docs/tools.md ("cutover plan"),
// computed from a zone and a PlanRequest. build_runbook() is the timeline arithmetic; it is
// pure (the start time comes in the request). Plain values.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "dns/types.h"
#include "tools/plan/plan_request.h"
#include "tools/report/finding.h"
#include "zone/zone.h"

namespace cutover::tools {

// One observable condition of a step, for `cutover monitor --plan` (docs/operations.md,
// "Following a runbook"). On `authoritatives` it says the step's action was carried out; on
// `resolvers` it holds for each resolver separately and says the step's wait is over there.
struct StepCheck {
  enum class Source { kAuthoritatives, kResolvers };
  enum class Condition {
    kTtlAtMost,   // the answer's lowest TTL <= ttl (a lowered TTL served, or an old copy gone)
    kTtlAtLeast,  // the answer's lowest TTL >= ttl (a TTL restored)
    kServes,      // NOERROR with exactly `rdata` ("203.0.113.50")
    kAbsent,      // NXDOMAIN, or NOERROR without records of the type
    kExists,      // NOERROR with records of the type
    kElapsed,     // `seconds` have passed since step `since_step` was done (a time rule)
  };
  Source source = Source::kResolvers;
  Condition condition = Condition::kServes;
  dns::Name name;
  dns::RRType type = dns::RRType::A;
  std::vector<std::string> rdata;  // kServes, sorted
  std::uint32_t ttl = 0;           // kTtlAtMost, kTtlAtLeast
  std::uint32_t seconds = 0;       // kElapsed
  std::size_t since_step = 0;      // kElapsed
};

struct RunbookStep {
  std::string phase;  // "records" or "nameservers"
  std::chrono::seconds offset{0};  // from request.start
  std::chrono::sys_seconds at{};
  std::string title;
  std::vector<std::string> actions;
  std::vector<std::string> commands;  // verification commands to run at this step
  // What `cutover monitor --plan` watches: `ready` holds when this step's wait has really
  // passed (checks on resolvers, or a time rule); `done` when its action is seen on the
  // authoritatives. A step without `done` checks is done when it is ready.
  std::vector<StepCheck> ready;
  std::vector<StepCheck> done;
};

struct RunbookNumber {
  std::string what;
  std::string value;
  std::string source;
};

struct Runbook {
  std::string origin;
  std::chrono::sys_seconds start{};
  std::vector<std::string> changes;  // RecordChange::text() and the NS move
  bool refused = false;
  std::string refusal;               // why, when refused
  std::vector<RunbookStep> steps;    // in time order
  std::vector<RunbookNumber> numbers;
  std::vector<Finding> warnings;
  std::vector<std::string> resolvers;  // from the request, for the monitor

  // The arithmetic, also in the numbers table (seconds).
  std::uint32_t max_old_ttl = 0;       // longest TTL among the RRsets being changed
  std::uint32_t new_ttl = 0;           // TTL the changed records carry from the change on
  double slowest_client = 0;           // C: longest client cache in the inventory
  double stale_window = 0;             // new TTL + slowest client cache
  std::uint32_t negative_ttl = 0;      // min(SOA TTL, MINIMUM)
  std::uint32_t parent_ns_ttl = 0;
  std::uint32_t child_ns_ttl = 0;
  std::chrono::seconds keep_old_servers{0};  // 2 x max(parent, child NS TTL) after the NS change
};

// The parent NS TTL assumed when none is given: the .com delegation TTL (docs/tools.md, "cutover plan").
constexpr std::uint32_t kAssumedParentNsTtl = 172800;

Runbook build_runbook(const zone::Zone& zone, const PlanRequest& request);

}  // namespace cutover::tools
