// Markdown and JSON forms of a runbook. The Markdown ends with the checklist of docs/tools.md ("cutover plan") so
// the plan doubles as the record of what was done.
#include "tools/plan/runbook_output.h"

#include <cmath>

#include <fmt/format.h>

#include "tools/report/text_table.h"

namespace cutover::tools {
namespace {

std::string offset_text(std::chrono::seconds offset) {
  if (offset.count() == 0) return "T+0";
  return "T+" + human_duration(static_cast<double>(offset.count()));
}

constexpr const char* kChecklist[] = {
    "Old TTL, new TTL and the time of the lowering written down; lowered at least one old TTL ahead",
    "SOA negative TTL read; names that do not exist yet created before anything queries them",
    "For a delegation change: parent and child NS TTLs written; old servers kept for the larger, twice",
    "Every client runtime and its longest cache listed",
    "Three resolvers named, and the answer that means done",
    "Change made; old backend still serving or proxying",
    "Waited the new TTL plus the longest client cache; resolvers agree (cutover sweep --until-agree)",
    "Long TTL restored; old backend retired last",
    "Dates and the measured window recorded next to the planned ones",
};

}  // namespace

std::string runbook_to_markdown(const Runbook& book) {
  std::string out = fmt::format("# Change runbook for {}\n\n", book.origin);
  out += fmt::format("T+0 = {}. All times UTC.\n\n", format_utc_time(book.start));
  out += "Changes:\n\n";
  for (const auto& change : book.changes) out += fmt::format("- {}\n", change);
  if (book.refused) {
    out += fmt::format("\n**Refused.** {}\n", book.refusal);
    return out;
  }
  out += "\n## Numbers\n\n| what | value | source |\n|---|---|---|\n";
  for (const auto& number : book.numbers) out += fmt::format("| {} | {} | {} |\n", number.what, number.value, number.source);
  out += "\n## Timeline\n\n| when | offset | phase | step |\n|---|---|---|---|\n";
  for (const auto& step : book.steps) {
    out += fmt::format("| {} | {} | {} | {} |\n", format_utc_time(step.at), offset_text(step.offset), step.phase,
                       step.title);
  }
  for (const auto& step : book.steps) {
    out += fmt::format("\n### {} ({}): {}\n\n", offset_text(step.offset), format_utc_time(step.at), step.title);
    for (const auto& action : step.actions) out += fmt::format("- {}\n", action);
    if (!step.commands.empty()) {
      out += "\n```\n";
      for (const auto& command : step.commands) out += command + "\n";
      out += "```\n";
    }
  }
  if (!book.warnings.empty()) {
    out += "\n## Warnings\n\n";
    for (const auto& warning : book.warnings) out += fmt::format("- {}\n", finding_to_text(warning));
  }
  out += "\n## Checklist (docs/tools.md#cutover-plan-zonefile)\n\n";
  for (const char* item : kChecklist) out += fmt::format("- [ ] {}\n", item);
  return out;
}

nlohmann::json runbook_to_json(const Runbook& book) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& step : book.steps) {
    steps.push_back({{"phase", step.phase},
                     {"offset_seconds", step.offset.count()},
                     {"at", format_utc_time(step.at)},
                     {"title", step.title},
                     {"actions", step.actions},
                     {"commands", step.commands}});
  }
  nlohmann::json numbers = nlohmann::json::array();
  for (const auto& number : book.numbers) {
    numbers.push_back({{"what", number.what}, {"value", number.value}, {"source", number.source}});
  }
  nlohmann::json out = {{"origin", book.origin},
                        {"start", format_utc_time(book.start)},
                        {"changes", book.changes},
                        {"refused", book.refused},
                        {"steps", steps},
                        {"numbers", numbers},
                        {"warnings", findings_to_json(book.warnings)},
                        {"max_old_ttl", book.max_old_ttl},
                        {"new_ttl", book.new_ttl},
                        {"negative_ttl", book.negative_ttl},
                        {"parent_ns_ttl", book.parent_ns_ttl},
                        {"child_ns_ttl", book.child_ns_ttl},
                        {"keep_old_servers_seconds", book.keep_old_servers.count()}};
  if (std::isfinite(book.stale_window)) {
    out["stale_window_seconds"] = book.stale_window;
  } else {
    out["stale_window_seconds"] = nullptr;
  }
  if (book.refused) out["refusal"] = book.refusal;
  return out;
}

}  // namespace cutover::tools
