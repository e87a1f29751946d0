// Diagnostic: one problem found while reading or checking a zone, with its place in the source.
// Plain value type.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cutover::zone {

struct SourceLocation {
  std::string file;
  std::uint32_t line = 0;    // 1-based; 0 when unknown
  std::uint32_t column = 0;  // 1-based; 0 when unknown
};

enum class Severity { kWarning, kError };

struct Diagnostic {
  Severity severity = Severity::kError;
  SourceLocation location;
  std::string message;

  // "FILE:LINE:COLUMN: error: MESSAGE"
  std::string to_string() const;
};

bool has_errors(const std::vector<Diagnostic>& diagnostics);

}  // namespace cutover::zone
