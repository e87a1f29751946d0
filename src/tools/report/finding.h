// Finding: one thing a tool wants the operator to look at, with a severity, a stable rule id
// and a one-line reason; plus the exit-code convention every tool shares. Plain values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace cutover::tools {

enum class Severity { kInfo, kWarning, kError };

// Every tool exits with one of these: 0 nothing to report, 1 findings, 2 could not run.
enum class ExitCode : int { kOk = 0, kFindings = 1, kCouldNotRun = 2 };

struct Finding {
  Severity severity = Severity::kWarning;
  std::string rule;     // stable id, e.g. "ns-ttl-differs"
  std::string subject;  // what it is about: a name, a server, a zone cut
  std::string message;  // one line, says why it matters
  // Source position for findings about a file (lint); line 0 means none.
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

// A finding about a name or server (no file position).
inline Finding make_finding(Severity severity, std::string rule, std::string subject, std::string message) {
  Finding finding;
  finding.severity = severity;
  finding.rule = std::move(rule);
  finding.subject = std::move(subject);
  finding.message = std::move(message);
  return finding;
}

std::string_view severity_to_text(Severity severity);
// "info", "warning", "error"; anything else is rejected.
bool severity_from_text(std::string_view text, Severity& severity);

// kFindings when any finding is a warning or an error; info alone is not a finding to fail on.
ExitCode exit_code_for(const std::vector<Finding>& findings);

nlohmann::json finding_to_json(const Finding& finding);
nlohmann::json findings_to_json(const std::vector<Finding>& findings);
// "severity [rule] subject: message", or "file:line:col: severity [rule] message" when located.
std::string finding_to_text(const Finding& finding);

}  // namespace cutover::tools
