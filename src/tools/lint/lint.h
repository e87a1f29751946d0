// Zone lint: reads a master file with the zone parser and reports TTL policy findings and
// delegation traps, each with the rule id, a severity and a one-line reason. Stateless.
#pragma once

#include <string>
#include <vector>

#include "dns/name.h"
#include "tools/lint/lint_rules.h"
#include "tools/report/finding.h"
#include "zone/master_parser.h"

namespace cutover::tools {

struct LintReport {
  std::string file;
  std::vector<Finding> findings;  // in file order of the record they point at
  std::size_t records = 0;
};

// Lints records already parsed (parse diagnostics become parse-error findings).
LintReport lint_parsed_zone(const dns::Name& origin, const zone::ParseResult& parsed, const std::string& file,
                            const LintConfig& config);
// Parses and lints `path`; the semantic checks of the loader are reported too.
LintReport lint_zone_file(const dns::Name& origin, const std::string& path, const LintConfig& config);

}  // namespace cutover::tools
