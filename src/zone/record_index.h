// RecordIndex: the in-zone parsed records grouped by owner name (owners in order of first
// appearance, each owner's records in file order), for the semantic checks. Holds pointers
// into the records it was built from, which must outlive it. Immutable after construction.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dns/name.h"
#include "dns/types.h"
#include "zone/master_parser.h"
#include "zone/name_index.h"

namespace cutover::zone {

class RecordIndex {
 public:
  using Records = std::span<const ParsedRecord* const>;  // in file order

  struct Owner {
    const dns::Name* name;  // the first record's spelling
    Records records;
  };

  // Records whose owner is not at or below `origin` are left out.
  RecordIndex(const dns::Name& origin, std::span<const ParsedRecord> records);

  const std::vector<Owner>& by_owner() const { return owners_; }
  // The records of `owner` (compared without case); empty when it has none.
  Records records_of(const dns::Name& owner) const;
  // The first record of `type` at `owner`, or nullptr.
  const ParsedRecord* first(const dns::Name& owner, dns::RRType type) const;
  bool has(const dns::Name& owner, dns::RRType type) const { return first(owner, type) != nullptr; }
  // True when some record is a DNAME, or an NS below the apex: only then can a name lie
  // below a zone cut, so the checks can skip walking every owner's ancestors otherwise.
  bool has_cuts() const { return has_cuts_; }

 private:
  std::vector<const ParsedRecord*> grouped_;  // every owner's records back to back
  std::vector<Owner> owners_;
  NameIndex index_;  // lowercase owner wire -> position in owners_
  bool has_cuts_ = false;
};

// "line 12" for a record in `file`, "other.inc:12" for one in another file.
std::string line_reference(const SourceLocation& location, const std::string& file);

}  // namespace cutover::zone
