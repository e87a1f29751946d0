// RecordIndex: the in-zone parsed records grouped by owner name in canonical order, for
// the semantic checks. Holds pointers into the records it was built from, which must
// outlive it. Immutable after construction.
#pragma once

#include <map>
#include <span>
#include <string>
#include <vector>

#include "dns/name.h"
#include "dns/types.h"
#include "zone/master_parser.h"

namespace cutover::zone {

class RecordIndex {
 public:
  using Records = std::vector<const ParsedRecord*>;  // in file order

  // Records whose owner is not at or below `origin` are left out.
  RecordIndex(const dns::Name& origin, std::span<const ParsedRecord> records);

  const std::map<dns::Name, Records, dns::NameCanonicalLess>& by_owner() const { return by_owner_; }
  // The first record of `type` at `owner`, or nullptr.
  const ParsedRecord* first(const dns::Name& owner, dns::RRType type) const;
  bool has(const dns::Name& owner, dns::RRType type) const { return first(owner, type) != nullptr; }

 private:
  std::map<dns::Name, Records, dns::NameCanonicalLess> by_owner_;
};

// "line 12" for a record in `file`, "other.inc:12" for one in another file.
std::string line_reference(const SourceLocation& location, const std::string& file);

}  // namespace cutover::zone
