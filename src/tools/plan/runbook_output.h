// The runbook as Markdown (for people and tickets) and JSON (for scripts). Stateless.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "tools/plan/runbook.h"

namespace cutover::tools {

std::string runbook_to_markdown(const Runbook& book);
nlohmann::json runbook_to_json(const Runbook& book);
// The runbook back from runbook_to_json's document (for `cutover monitor --plan`): the steps,
// their times and checks; the prose is not needed and not read back.
base::Result<Runbook> runbook_from_json(const nlohmann::json& document);
// "ttl-at-most", "serves", ...: the condition as the JSON writes it.
const char* condition_name(StepCheck::Condition condition);

}  // namespace cutover::tools
