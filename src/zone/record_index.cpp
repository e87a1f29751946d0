// Grouping of parsed records by owner for the semantic checks.
#include "zone/record_index.h"

#include <fmt/format.h>

namespace cutover::zone {

RecordIndex::RecordIndex(const dns::Name& origin, std::span<const ParsedRecord> records) {
  for (const ParsedRecord& record : records) {
    if (record.record.owner.is_subdomain_of(origin)) by_owner_[record.record.owner].push_back(&record);
  }
}

const ParsedRecord* RecordIndex::first(const dns::Name& owner, dns::RRType type) const {
  auto node = by_owner_.find(owner);
  if (node == by_owner_.end()) return nullptr;
  for (const ParsedRecord* record : node->second) {
    if (record->record.type == type) return record;
  }
  return nullptr;
}

std::string line_reference(const SourceLocation& location, const std::string& file) {
  if (location.file == file) return fmt::format("line {}", location.line);
  return fmt::format("{}:{}", location.file, location.line);
}

}  // namespace cutover::zone
