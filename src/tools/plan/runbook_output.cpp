// Markdown and JSON forms of a runbook. The Markdown ends with the checklist of docs/tools.md ("cutover plan") so
// the plan doubles as the record of what was done.
#include "tools/plan/runbook_output.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "dns/types.h"
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

constexpr std::pair<StepCheck::Condition, const char*> kConditionNames[] = {
    {StepCheck::Condition::kTtlAtMost, "ttl-at-most"}, {StepCheck::Condition::kTtlAtLeast, "ttl-at-least"},
    {StepCheck::Condition::kServes, "serves"},         {StepCheck::Condition::kAbsent, "absent"},
    {StepCheck::Condition::kExists, "exists"},         {StepCheck::Condition::kElapsed, "elapsed"},
};

nlohmann::json checks_to_json(const std::vector<StepCheck>& checks) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& item : checks) {
    nlohmann::json entry = {{"condition", condition_name(item.condition)}};
    if (item.condition == StepCheck::Condition::kElapsed) {
      entry["seconds"] = item.seconds;
      entry["since_step"] = item.since_step;
    } else {
      entry["source"] = item.source == StepCheck::Source::kResolvers ? "resolvers" : "authoritatives";
      entry["name"] = item.name.to_text();
      entry["type"] = dns::type_to_text(item.type);
      if (item.condition == StepCheck::Condition::kServes) entry["rdata"] = item.rdata;
      if (item.condition == StepCheck::Condition::kTtlAtMost || item.condition == StepCheck::Condition::kTtlAtLeast) {
        entry["ttl"] = item.ttl;
      }
    }
    out.push_back(entry);
  }
  return out;
}

// Reads what checks_to_json wrote; `where` names the place in errors ("steps[2].ready[0]").
base::Result<StepCheck> check_from_json(const nlohmann::json& entry, const std::string& where, std::size_t steps) {
  auto bad = [&](const std::string& why) {
    return base::make_error(base::ErrorCode::kInvalidArgument, fmt::format("{}: {}", where, why));
  };
  if (!entry.is_object() || !entry.contains("condition") || !entry["condition"].is_string()) {
    return bad("expected an object with a \"condition\"");
  }
  StepCheck out;
  const std::string condition = entry["condition"];
  auto known = std::find_if(std::begin(kConditionNames), std::end(kConditionNames),
                            [&](const auto& pair) { return condition == pair.second; });
  if (known == std::end(kConditionNames)) return bad("unknown condition \"" + condition + "\"");
  out.condition = known->first;
  if (out.condition == StepCheck::Condition::kElapsed) {
    if (!entry.value("seconds", nlohmann::json()).is_number_unsigned() ||
        !entry.value("since_step", nlohmann::json()).is_number_unsigned()) {
      return bad("\"elapsed\" needs \"seconds\" and \"since_step\" (whole numbers)");
    }
    out.seconds = entry["seconds"];
    out.since_step = entry["since_step"];
    if (out.since_step >= steps) return bad("\"since_step\" names no step");
    return out;
  }
  const std::string source = entry.value("source", "");
  if (source != "resolvers" && source != "authoritatives") return bad("\"source\" must be resolvers or authoritatives");
  out.source = source == "resolvers" ? StepCheck::Source::kResolvers : StepCheck::Source::kAuthoritatives;
  const std::string name_text = entry.value("name", "");
  auto name = dns::Name::from_text(name_text);
  if (!name || !name_text.ends_with('.')) return bad("\"name\" must be an absolute name");
  out.name = *name;
  auto type = dns::type_from_text(entry.value("type", ""));
  if (!type) return bad("unknown \"type\"");
  out.type = *type;
  if (out.condition == StepCheck::Condition::kServes) {
    if (!entry.contains("rdata") || !entry["rdata"].is_array()) return bad("\"serves\" needs \"rdata\", a list");
    for (const auto& item : entry["rdata"]) {
      if (!item.is_string()) return bad("\"rdata\" entries must be strings");
      out.rdata.push_back(item);
    }
    std::sort(out.rdata.begin(), out.rdata.end());
  }
  if (out.condition == StepCheck::Condition::kTtlAtMost || out.condition == StepCheck::Condition::kTtlAtLeast) {
    if (!entry.value("ttl", nlohmann::json()).is_number_unsigned()) return bad("needs \"ttl\" (seconds)");
    out.ttl = entry["ttl"];
  }
  return out;
}

}  // namespace

const char* condition_name(StepCheck::Condition condition) {
  for (const auto& [value, name] : kConditionNames) {
    if (value == condition) return name;
  }
  return "?";
}

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
                     {"commands", step.commands},
                     {"ready", checks_to_json(step.ready)},
                     {"done", checks_to_json(step.done)}});
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
                        {"resolvers", book.resolvers},
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

namespace {

base::Result<Runbook> read_runbook(const nlohmann::json& document) {
  auto bad = [](const std::string& why) { return base::make_error(base::ErrorCode::kInvalidArgument, why); };
  if (!document.is_object()) return bad("expected a JSON object (the output of cutover plan --json)");
  if (document.value("refused", false)) return bad("the plan was refused: " + document.value("refusal", ""));
  Runbook book;
  if (!document.contains("origin") || !document["origin"].is_string()) return bad("\"origin\": missing");
  book.origin = document["origin"];
  auto start = parse_utc_time(document.value("start", ""));
  if (!start) return bad("\"start\": " + start.error().message);
  book.start = *start;
  if (!document.contains("steps") || !document["steps"].is_array() || document["steps"].empty()) {
    return bad("\"steps\": expected a non-empty list");
  }
  const auto& steps = document["steps"];
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& entry = steps[i];
    const std::string where = fmt::format("steps[{}]", i);
    if (!entry.is_object() || !entry.value("offset_seconds", nlohmann::json()).is_number_integer() ||
        !entry.value("title", nlohmann::json()).is_string()) {
      return bad(where + ": expected an object with \"offset_seconds\" and \"title\"");
    }
    RunbookStep step;
    step.phase = entry.value("phase", "");
    step.offset = std::chrono::seconds(entry["offset_seconds"].get<long long>());
    step.at = book.start + step.offset;
    step.title = entry["title"];
    for (const char* key : {"ready", "done"}) {
      if (!entry.contains(key)) continue;
      if (!entry[key].is_array()) return bad(fmt::format("{}.{}: expected a list", where, key));
      for (std::size_t j = 0; j < entry[key].size(); ++j) {
        auto parsed = check_from_json(entry[key][j], fmt::format("{}.{}[{}]", where, key, j), steps.size());
        if (!parsed) return base::Result<Runbook>(parsed.error());
        (std::string_view(key) == "ready" ? step.ready : step.done).push_back(*parsed);
      }
    }
    book.steps.push_back(std::move(step));
  }
  if (document.contains("resolvers") && document["resolvers"].is_array()) {
    for (const auto& item : document["resolvers"]) {
      if (item.is_string()) book.resolvers.push_back(item);
    }
  }
  book.max_old_ttl = document.value("max_old_ttl", 0U);
  book.new_ttl = document.value("new_ttl", 0U);
  return book;
}

}  // namespace

base::Result<Runbook> runbook_from_json(const nlohmann::json& document) {
  try {
    return read_runbook(document);
  } catch (const nlohmann::json::exception& e) {
    // A field of the wrong JSON type: value() and get() throw type_error.
    return base::make_error(base::ErrorCode::kInvalidArgument, std::string("a field has the wrong type: ") + e.what());
  }
}

}  // namespace cutover::tools
