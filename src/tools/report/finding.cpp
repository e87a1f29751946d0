// Severity text, exit codes and the JSON/text forms of findings.
#include "tools/report/finding.h"

#include <fmt/format.h>

namespace cutover::tools {

std::string_view severity_to_text(Severity severity) {
  switch (severity) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "error";
}

bool severity_from_text(std::string_view text, Severity& severity) {
  for (Severity candidate : {Severity::kInfo, Severity::kWarning, Severity::kError}) {
    if (text == severity_to_text(candidate)) {
      severity = candidate;
      return true;
    }
  }
  return false;
}

ExitCode exit_code_for(const std::vector<Finding>& findings) {
  for (const auto& finding : findings) {
    if (finding.severity != Severity::kInfo) return ExitCode::kFindings;
  }
  return ExitCode::kOk;
}

nlohmann::json finding_to_json(const Finding& finding) {
  nlohmann::json out = {{"severity", severity_to_text(finding.severity)},
                        {"rule", finding.rule},
                        {"subject", finding.subject},
                        {"message", finding.message}};
  if (finding.line != 0) {
    out["file"] = finding.file;
    out["line"] = finding.line;
    out["column"] = finding.column;
  }
  return out;
}

nlohmann::json findings_to_json(const std::vector<Finding>& findings) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& finding : findings) out.push_back(finding_to_json(finding));
  return out;
}

std::string finding_to_text(const Finding& finding) {
  if (finding.line != 0) {
    return fmt::format("{}:{}:{}: {} [{}] {}: {}", finding.file, finding.line, finding.column,
                       severity_to_text(finding.severity), finding.rule, finding.subject, finding.message);
  }
  return fmt::format("{} [{}] {}: {}", severity_to_text(finding.severity), finding.rule, finding.subject,
                     finding.message);
}

}  // namespace cutover::tools
