// Lint report formats. SARIF levels: info maps to "note", the others keep their names.
#include "tools/lint/lint_output.h"

#include <fmt/format.h>

namespace cutover::tools {

std::string lint_to_text(const LintReport& report) {
  std::string out;
  std::size_t counts[3] = {0, 0, 0};
  for (const auto& finding : report.findings) {
    out += fmt::format("{}:{}:{}: {}: {} [{}]\n", finding.file, finding.line, finding.column,
                       severity_to_text(finding.severity), finding.message, finding.rule);
    ++counts[static_cast<int>(finding.severity)];
  }
  out += fmt::format("{}: {} records, {} errors, {} warnings, {} notes\n", report.file, report.records, counts[2],
                     counts[1], counts[0]);
  return out;
}

nlohmann::json lint_to_json(const LintReport& report) {
  return {{"file", report.file}, {"records", report.records}, {"findings", findings_to_json(report.findings)}};
}

nlohmann::json lint_to_sarif(const LintReport& report) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& rule : lint_rules()) {
    rules.push_back({{"id", rule.id},
                     {"shortDescription", {{"text", rule.summary}}},
                     {"help", {{"text", rule.basis}}},
                     {"defaultConfiguration", {{"level", rule.default_severity == Severity::kInfo
                                                             ? "note"
                                                             : severity_to_text(rule.default_severity)}}}});
  }
  nlohmann::json results = nlohmann::json::array();
  for (const auto& finding : report.findings) {
    results.push_back(
        {{"ruleId", finding.rule},
         {"level", finding.severity == Severity::kInfo ? "note" : severity_to_text(finding.severity)},
         {"message", {{"text", finding.subject.empty() ? finding.message : finding.subject + ": " + finding.message}}},
         {"locations",
          {{{"physicalLocation",
             {{"artifactLocation", {{"uri", finding.file}}},
              {"region", {{"startLine", finding.line}, {"startColumn", finding.column}}}}}}}}});
  }
  return {{"version", "2.1.0"},
          {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"runs", {{{"tool", {{"driver", {{"name", "cutover lint"}, {"rules", rules}}}}}, {"results", results}}}}};
}

}  // namespace cutover::tools
