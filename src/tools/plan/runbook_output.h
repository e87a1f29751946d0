// The runbook as Markdown (for people and tickets) and JSON (for scripts). Stateless.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tools/plan/runbook.h"

namespace cutover::tools {

std::string runbook_to_markdown(const Runbook& book);
nlohmann::json runbook_to_json(const Runbook& book);

}  // namespace cutover::tools
