// Zone loading pipeline: parse the master file, run the semantic checks, build the Zone.
// The Zone is built only when neither step reported an error.
#include "zone/loader.h"

#include <optional>
#include <utility>

#include "zone/checks.h"
#include "zone/master_parser.h"
#include "zone/record_index.h"

namespace cutover::zone {
namespace {

// Runs the checks; when they find no error, returns the owner numbering they built so the
// Zone reuses it. The grouped view the checks needed is freed on return.
std::optional<OwnerNumbering> check(const dns::Name& origin, const ParseResult& parsed, const std::string& file,
                                    std::vector<Diagnostic>& diagnostics) {
  // A file that could not be read has no records worth checking.
  if (has_errors(diagnostics) && parsed.records.empty()) return std::nullopt;
  RecordIndex index(origin, parsed.records);
  auto findings = check_zone_records(origin, parsed.records, index, file);
  diagnostics.insert(diagnostics.end(), findings.begin(), findings.end());
  if (has_errors(diagnostics)) return std::nullopt;
  return std::move(index).take_numbering();
}

ZoneLoad finish_load(const dns::Name& origin, ParseResult parsed, const std::string& file, const OrderPolicy& order) {
  ZoneLoad load;
  load.diagnostics = std::move(parsed.diagnostics);
  auto numbering = check(origin, parsed, file, load.diagnostics);
  if (!numbering) return load;

  std::vector<dns::ResourceRecord> records;
  records.reserve(parsed.records.size());
  for (auto& parsed_record : parsed.records) records.push_back(std::move(parsed_record.record));
  // The source locations are no longer needed: free them before the Zone allocates its own.
  std::vector<ParsedRecord>().swap(parsed.records);
  auto zone = Zone::build(origin, std::move(records), std::move(*numbering), order);
  if (!zone) {
    load.diagnostics.push_back(Diagnostic{Severity::kError, SourceLocation{file, 0, 0}, zone.error().message});
    return load;
  }
  load.zone = std::move(zone).value();
  return load;
}

}  // namespace

ZoneLoad load_zone_file(const dns::Name& origin, const std::string& path, const OrderPolicy& order) {
  return finish_load(origin, parse_master_file(origin, path), path, order);
}

ZoneLoad load_zone_text(const dns::Name& origin, std::string_view text, const std::string& file_label,
                        const OrderPolicy& order) {
  return finish_load(origin, parse_master_text(origin, text, file_label), file_label, order);
}

}  // namespace cutover::zone
