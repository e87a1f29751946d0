// Output forms of a lint report: text lines, JSON, and SARIF 2.1.0 for CI annotations.
// Stateless.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "tools/lint/lint.h"

namespace cutover::tools {

std::string lint_to_text(const LintReport& report);
nlohmann::json lint_to_json(const LintReport& report);
nlohmann::json lint_to_sarif(const LintReport& report);

}  // namespace cutover::tools
