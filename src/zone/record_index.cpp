// Grouping of parsed records by owner for the semantic checks: the owners are numbered by
// OwnerNumberer, then one counting pass lays the groups out.
#include "zone/record_index.h"

#include <fmt/format.h>

namespace cutover::zone {

RecordIndex::RecordIndex(const dns::Name& origin, std::span<const ParsedRecord> records) {
  OwnerNumberer numberer(origin, records.size());
  for (const ParsedRecord& parsed : records) numberer.add(parsed.record.owner);
  numbering_ = std::move(numberer).finish();
  // Owners are numbered by first appearance: a number not seen yet is the next one.
  std::vector<std::uint32_t> counts;
  counts.reserve(numbering_.owners);
  std::vector<const dns::Name*> names;
  names.reserve(numbering_.owners);
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!in_zone(i)) continue;
    const dns::ResourceRecord& record = records[i].record;
    if (record.type == dns::RRType::DNAME || (record.type == dns::RRType::NS && !(record.owner == origin))) {
      has_cuts_ = true;
    }
    std::uint32_t owner = numbering_.owner_of[i];
    if (owner == counts.size()) {
      counts.push_back(0);
      names.push_back(&record.owner);
    }
    ++counts[owner];
  }
  // Each owner's slice starts where the previous one ends; filling in file order keeps it.
  std::vector<std::uint32_t> next(counts.size(), 0);
  std::uint32_t total = 0;
  for (std::size_t owner = 0; owner < counts.size(); ++owner) {
    next[owner] = total;
    total += counts[owner];
  }
  grouped_.resize(total);
  owners_.reserve(counts.size());
  for (std::size_t owner = 0; owner < counts.size(); ++owner) {
    owners_.push_back(Owner{names[owner], Records(grouped_.data() + next[owner], counts[owner])});
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (in_zone(i)) grouped_[next[numbering_.owner_of[i]]++] = &records[i];
  }
}

RecordIndex::Records RecordIndex::records_of(const dns::Name& owner) const {
  LowerName lower(owner);
  auto found = numbering_.index.find(hash_lower_wire(lower.all()),
                                     [&](std::uint32_t value) { return same_name(*owners_[value].name, lower.all()); });
  return found ? owners_[*found].records : Records();
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
