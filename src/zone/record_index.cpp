// Grouping of parsed records by owner for the semantic checks: the owners are numbered by
// OwnerNumberer, then one counting pass lays the groups out.
#include "zone/record_index.h"

#include <fmt/format.h>

namespace cutover::zone {

RecordIndex::RecordIndex(const dns::Name& origin, std::span<const ParsedRecord> records) {
  OwnerNumberer numberer(origin, records.size());
  for (const ParsedRecord& parsed : records) numberer.add(parsed.record.owner);
  numbering_ = std::move(numberer).finish();
  // Owners are numbered by first appearance: a number not seen yet is the next one. First
  // starts_[k + 1] counts owner k's records, then it becomes where they start.
  starts_.reserve(numbering_.owners + 1);
  starts_.push_back(0);
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!in_zone(i)) continue;
    const dns::ResourceRecord& record = records[i].record;
    if (record.type == dns::RRType::DNAME || (record.type == dns::RRType::NS && !(record.owner == origin))) {
      has_cuts_ = true;
    }
    std::uint32_t owner = numbering_.owner_of[i];
    if (owner + 1 == starts_.size()) starts_.push_back(0);
    ++starts_[owner + 1];
  }
  // Each owner's slice starts where the previous one ends; filling in file order keeps it,
  // and puts each owner's first record (whose spelling names it) first.
  for (std::size_t k = 1; k < starts_.size(); ++k) starts_[k] += starts_[k - 1];
  std::vector<std::uint32_t> next(starts_.begin(), starts_.end() - 1);
  grouped_.resize(starts_.back());
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (in_zone(i)) grouped_[next[numbering_.owner_of[i]]++] = &records[i];
  }
}

RecordIndex::Records RecordIndex::records_of(const dns::Name& owner) const {
  LowerName lower(owner);
  auto found = numbering_.index.find(hash_lower_wire(lower.all()), [&](std::uint32_t value) {
    return same_name(*owner_at(value).name, lower.all());
  });
  return found ? owner_at(*found).records : Records();
}

const ParsedRecord* RecordIndex::first(const dns::Name& owner, dns::RRType type) const {
  for (const ParsedRecord* record : records_of(owner)) {
    if (record->record.type == type) return record;
  }
  return nullptr;
}

std::string line_reference(const SourceLocation& location, const std::string& file) {
  if (location.file == file) return fmt::format("line {}", location.line);
  return fmt::format("{}:{}", location.file, location.line);
}

}  // namespace cutover::zone
