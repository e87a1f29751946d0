// FastIndex: every name of a zone with its answers pre-encoded, packed into one byte arena
// and found through a hash of the lowercase wire name, so the fast path compares the name
// and copies the answer from the same few cache lines instead of chasing a node, its name,
// its RRsets and each rdata through separate heap blocks. Built with the ZoneSet, then
// read-only: thread-safe for readers.
#pragma once

#include <cstdint>
#include <memory>
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
    kAbsent,           // a patch's gone name, or the empty-named entry NSEC3 owners share (find() never returns one)
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

// A patched zone (zone::Zone::patch) gets a FastIndex that shares its base's table and
// looks names up in small tables of the patch's two layers first.
class FastIndex {
 public:
  FastIndex();
  // Every name of `zone` (for a patched zone: its base's table, then the patch's).
  explicit FastIndex(const zone::Zone& zone) : FastIndex(zone, nullptr) {}
  // The same, taking the base's table from `previous` when it was built for the same base
  // zone: a write then costs a table of the patched names alone. With `signatures`, a signed
  // zone's index for queries with the DO bit: each RRset's answer carries its RRSIGs.
  FastIndex(const zone::Zone& zone, const FastIndex* previous, bool signatures = false);

  // The entry for a lowercase wire name whose hash is zone::hash_lower_wire(lower_wire).
  const std::uint8_t* find(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
    if (patch_ != nullptr) [[unlikely]] return find_patched(lower_wire, hash);
    return find_shared(lower_wire, hash);
  }
  // The lookup in the shared table alone.
  const std::uint8_t* find_shared(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
    return find_in(arena_, index_, lower_wire, hash);
  }
  // The two halves of warming a lookup of `hash` before doing it: first the index slot, then
  // (once that slot has arrived) the entry it points at, first two cache lines. Inlined for
  // the reason NameIndex::prefetch is. The shared table only: a patch is small and hot.
  [[gnu::always_inline]] void prefetch_slot(std::uint64_t hash) const { index_.prefetch(hash); }
  [[gnu::always_inline]] void prefetch_entry(std::uint64_t hash) const {
    if (auto at = index_.first_candidate(hash)) {
      __builtin_prefetch(arena_ + *at);
      __builtin_prefetch(arena_ + *at + 64);
    }
  }
  // The zone whose names the shared table holds (a patched zone's base).
  const zone::Zone* table_zone() const { return table_zone_; }
  std::size_t memory_bytes() const;

 private:
  // The entry for `lower_wire` among those `index` points at in `arena`.
  static const std::uint8_t* find_in(const std::uint8_t* arena, zone::NameIndex::View index,
                                     std::span<const std::uint8_t> lower_wire, std::uint64_t hash) {
    auto offset = index.find(hash, [&](std::uint32_t at) {
      const std::uint8_t* entry = arena + at;
      return entry[0] == lower_wire.size() && zone::equal_bytes(entry + 1, lower_wire.data(), lower_wire.size());
    });
    return offset ? arena + *offset : nullptr;
  }
  struct Table {
    const std::uint8_t* find(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
      return find_in(arena.data(), index.view(), lower_wire, hash);
    }
    std::vector<std::uint8_t, base::HugePageAllocator<std::uint8_t>> arena;  // read at random by every lookup
    zone::NameIndex index;
  };
  static std::shared_ptr<const Table> build(const zone::Zone& zone, bool signatures);
  static std::shared_ptr<const Table> build_patch(const zone::Zone& zone, int layer, bool signatures);
  // Appends the entry for `name` to `arena`; returns its offset.
  static std::uint32_t add(std::vector<std::uint8_t>& arena, std::span<const std::uint8_t> wire, FastEntry::Kind kind,
                           std::span<const zone::RRset> rrsets, bool signatures);

  // A patched zone's lookup: the patch first (out of line, so the common lookup stays small).
  const std::uint8_t* find_patched(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const;
  // Sets arena_ and index_ from table_.
  void point_at_table();

  // The shared table's arena and slots, kept here beside patch_ so a lookup reads them from
  // the ServedZone's own cache line instead of following table_ first.
  const std::uint8_t* arena_ = nullptr;
  zone::NameIndex::View index_;
  const Table* patch_ = nullptr;  // a patched zone's newer layer (zone.h): set for every patched zone
  std::shared_ptr<const Table> table_;
  std::shared_ptr<const Table> patch_owner_;
  std::shared_ptr<const Table> older_;  // its older layer, shared while the zone's is
  const void* older_layer_ = nullptr;
  const zone::Zone* table_zone_ = nullptr;
  bool signatures_ = false;
};

}  // namespace cutover::auth
