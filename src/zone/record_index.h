// RecordIndex: the in-zone parsed records grouped by owner name (owners in order of first
// appearance, each owner's records in file order), for the semantic checks. Holds pointers
// into the records it was built from, which must outlive it. Immutable after construction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dns/name.h"
#include "dns/types.h"
#include "zone/master_parser.h"
#include "zone/owner_numbering.h"

namespace cutover::zone {

class RecordIndex {
 public:
  using Records = std::span<const ParsedRecord* const>;  // in file order

  struct Owner {
    const dns::Name* name;  // the first record's spelling
    Records records;
  };

  // The owners in order of first appearance, each made on the fly from two offsets: four
  // bytes an owner kept, where a stored Owner took 24 (2 MB at 100,000 names, each byte of
  // it a fresh page to fault in at load).
  class Owners {
   public:
    class iterator {
     public:
      using value_type = Owner;
      using difference_type = std::ptrdiff_t;
      iterator() = default;
      iterator(const RecordIndex* index, std::size_t at) : index_(index), at_(at) {}
      Owner operator*() const { return index_->owner_at(at_); }
      iterator& operator++() {
        ++at_;
        return *this;
      }
      bool operator==(const iterator& other) const { return at_ == other.at_; }

     private:
      const RecordIndex* index_ = nullptr;
      std::size_t at_ = 0;
    };
    explicit Owners(const RecordIndex* index) : index_(index) {}
    iterator begin() const { return {index_, 0}; }
    iterator end() const { return {index_, index_->owner_count()}; }

   private:
    const RecordIndex* index_;
  };

  // Records whose owner is not at or below `origin` are left out.
  RecordIndex(const dns::Name& origin, std::span<const ParsedRecord> records);

  Owners by_owner() const { return Owners(this); }
  std::size_t owner_count() const { return starts_.size() - 1; }
  // Owner number k (in order of first appearance).
  Owner owner_at(std::size_t k) const {
    Records records(grouped_.data() + starts_[k], starts_[k + 1] - starts_[k]);
    return Owner{&records.front()->record.owner, records};
  }
  // The records of `owner` (compared without case); empty when it has none.
  Records records_of(const dns::Name& owner) const;
  // The first record of `type` at `owner`, or nullptr.
  const ParsedRecord* first(const dns::Name& owner, dns::RRType type) const;
  bool has(const dns::Name& owner, dns::RRType type) const { return first(owner, type) != nullptr; }
  // True when the i-th record given to the constructor is at or below the origin.
  bool in_zone(std::size_t record) const { return numbering_.owner_of[record] != OwnerNumbering::kOutside; }
  // True when some record is a DNAME, or an NS below the apex: only then can a name lie
  // below a zone cut, so the checks can skip walking every owner's ancestors otherwise.
  bool has_cuts() const { return has_cuts_; }
  // Hands the owner numbering over to Zone::build; the index answers no lookups afterwards.
  OwnerNumbering take_numbering() && { return std::move(numbering_); }

 private:
  std::vector<const ParsedRecord*> grouped_;  // every owner's records back to back
  // Owner k's records are grouped_[starts_[k], starts_[k + 1]); one more entry than owners.
  std::vector<std::uint32_t> starts_;
  OwnerNumbering numbering_;  // owner numbers index starts_
  bool has_cuts_ = false;
};

// "line 12" for a record in `file`, "other.inc:12" for one in another file.
std::string line_reference(const SourceLocation& location, const std::string& file);

}  // namespace cutover::zone
