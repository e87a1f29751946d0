// Grouping of parsed records by owner for the semantic checks: a hash of each owner's
// lowercase wire form numbers the owners, then one counting pass lays the groups out.
#include "zone/record_index.h"

#include <fmt/format.h>

namespace cutover::zone {

RecordIndex::RecordIndex(const dns::Name& origin, std::span<const ParsedRecord> records) : index_(records.size()) {
  std::vector<std::uint32_t> owner_of(records.size(), 0);
  std::vector<std::uint32_t> counts;
  std::vector<const dns::Name*> names;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const dns::ResourceRecord& record = records[i].record;
    if (!record.owner.is_subdomain_of(origin)) {
      owner_of[i] = UINT32_MAX;
      continue;
    }
    if (record.type == dns::RRType::DNAME || (record.type == dns::RRType::NS && !(record.owner == origin))) {
      has_cuts_ = true;
    }
    // Records of one owner are usually adjacent: try the previous owner before hashing.
    if (i > 0 && owner_of[i - 1] != UINT32_MAX && record.owner == *names[owner_of[i - 1]]) {
      owner_of[i] = owner_of[i - 1];
    } else {
      LowerName lower(record.owner);
      auto hash = hash_lower_wire(lower.all());
      auto found = index_.find(hash, [&](std::uint32_t value) { return same_name(*names[value], lower.all()); });
      if (!found) {
        found = static_cast<std::uint32_t>(names.size());
        index_.insert(hash, *found);
        names.push_back(&record.owner);
        counts.push_back(0);
      }
      owner_of[i] = *found;
    }
    ++counts[owner_of[i]];
  }
  // Each owner's slice starts where the previous one ends; filling in file order keeps it.
  std::vector<std::uint32_t> next(names.size(), 0);
  std::uint32_t total = 0;
  for (std::size_t owner = 0; owner < names.size(); ++owner) {
    next[owner] = total;
    total += counts[owner];
  }
  grouped_.resize(total);
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (owner_of[i] != UINT32_MAX) grouped_[next[owner_of[i]]++] = &records[i];
  }
  owners_.reserve(names.size());
  for (std::size_t owner = 0; owner < names.size(); ++owner) {
    std::uint32_t end = next[owner];
    owners_.push_back(Owner{names[owner], Records(grouped_.data() + (end - counts[owner]), counts[owner])});
  }
}

RecordIndex::Records RecordIndex::records_of(const dns::Name& owner) const {
  LowerName lower(owner);
  auto found = index_.find(hash_lower_wire(lower.all()),
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
