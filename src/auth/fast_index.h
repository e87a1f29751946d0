// FastIndex: every name of a zone with its answers pre-encoded, packed into one byte arena
// and found through a hash of the lowercase wire name, so the fast path compares the name
// and copies the answer from the same few cache lines instead of chasing a node, its name,
// its RRsets and each rdata through separate heap blocks. Built with the ZoneSet, then
// read-only: thread-safe for readers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/huge_pages.h"
#include "zone/name_index.h"
#include "zone/zone.h"

namespace cutover::auth {

// What the index knows about one name.
class FastEntry {
 public:
  enum class Kind : std::uint8_t {
    kRecords,          // answers come from the type table
    kEmptyNonTerminal, // exists, owns nothing: NODATA for every type
    kGeneral,          // a CNAME, an empty non-terminal near a cut, ...: the general pipeline decides
    kDelegated,        // at or below a zone cut: a referral, which the general pipeline writes
  };
  // One type's answer: the RRs as written after a question (owner = pointer to the question),
  // or `general` when the RRset needs the general encoder (rotation, names to compress).
  struct Answer {
    bool found = false;
    bool general = false;
    std::uint16_t count = 0;
    std::span<const std::uint8_t> records;
  };

  explicit FastEntry(const std::uint8_t* at) : at_(at) {}
  Kind kind() const { return static_cast<Kind>(at_[1 + at_[0]]); }
  Answer find(std::uint16_t type) const;

 private:
  const std::uint8_t* at_;  // name size, name, kind, type count, types
};

class FastIndex {
 public:
  FastIndex() = default;
  explicit FastIndex(const zone::Zone& zone);

  // The entry for a lowercase wire name whose hash is zone::hash_lower_wire(lower_wire).
  const std::uint8_t* find(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
    auto offset = index_.find(hash, [&](std::uint32_t at) {
      const std::uint8_t* entry = arena_.data() + at;
      return entry[0] == lower_wire.size() && zone::equal_bytes(entry + 1, lower_wire.data(), lower_wire.size());
    });
    return offset ? arena_.data() + *offset : nullptr;
  }
  // The two halves of warming a lookup of `hash` before doing it: first the index slot, then
  // (once that slot has arrived) the entry it points at, first two cache lines. Inlined for
  // the reason NameIndex::prefetch is.
  [[gnu::always_inline]] void prefetch_slot(std::uint64_t hash) const { index_.prefetch(hash); }
  [[gnu::always_inline]] void prefetch_entry(std::uint64_t hash) const {
    if (auto at = index_.first_candidate(hash)) {
      __builtin_prefetch(arena_.data() + *at);
      __builtin_prefetch(arena_.data() + *at + 64);
    }
  }
  std::size_t memory_bytes() const { return arena_.capacity() + index_.memory_bytes(); }

 private:
  // Appends the entry for `name` to `arena`; returns its offset.
  static std::uint32_t add(std::vector<std::uint8_t>& arena, std::span<const std::uint8_t> wire, FastEntry::Kind kind,
                           std::span<const zone::RRset> rrsets);

  std::vector<std::uint8_t, base::HugePageAllocator<std::uint8_t>> arena_;  // read at random by every lookup
  zone::NameIndex index_;
};

}  // namespace cutover::auth
