// Formatting of zone diagnostics as FILE:LINE:COLUMN: severity: message.
#include "zone/diagnostic.h"

#include <algorithm>

#include <fmt/format.h>

namespace cutover::zone {

std::string Diagnostic::to_string() const {
  const char* level = severity == Severity::kError ? "error" : "warning";
  if (location.line == 0) return fmt::format("{}: {}: {}", location.file, level, message);
  return fmt::format("{}:{}:{}: {}: {}", location.file, location.line, location.column, level, message);
}

bool has_errors(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::kError; });
}

}  // namespace cutover::zone
