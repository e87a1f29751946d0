// Runbook: the dated change plan and checklist of docs/tools.md ("cutover plan"),
// computed from a zone and a PlanRequest. build_runbook() is the timeline arithmetic; it is
// pure (the start time comes in the request). Plain values.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "tools/plan/plan_request.h"
#include "tools/report/finding.h"
#include "zone/zone.h"

namespace cutover::tools {

struct RunbookStep {
  std::string phase;  // "records" or "nameservers"
  std::chrono::seconds offset{0};  // from request.start
  std::chrono::sys_seconds at{};
  std::string title;
  std::vector<std::string> actions;
  std::vector<std::string> commands;  // verification commands to run at this step
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
