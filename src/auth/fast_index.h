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

#include "base/bytes.h"
#include "base/huge_pages.h"
#include "zone/name_index.h"
#include "zone/zone.h"

namespace cutover::auth {

// zone::equal_bytes, plus two overlapping 4-byte words for 4 to 7 bytes, where that loops
// byte by byte: a stored name (FastIndex) is often that short (h1234 and the origin's first
// byte). Kept apart from equal_bytes: the larger shared helper changed what GCC inlines on
// the pool path (+14 instructions per pool query in the perf gate).
inline bool equal_stored_name(const std::uint8_t* a, const std::uint8_t* b, std::size_t size) {
  if (size >= 4 && size < 8) {
    std::uint32_t a_first, b_first, a_last, b_last;
    __builtin_memcpy(&a_first, a, 4);
    __builtin_memcpy(&b_first, b, 4);
    __builtin_memcpy(&a_last, a + size - 4, 4);
    __builtin_memcpy(&b_last, b + size - 4, 4);
    return a_first == b_first && a_last == b_last;
  }
  return zone::equal_bytes(a, b, size);
}

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
  const std::uint8_t* at_;  // stored name size, stored name (FastIndex), kind, type count, types
};

// A patched zone (zone::Zone::patch) gets a FastIndex that shares its base's table and
// looks names up in small tables of the patch's two layers first.
//
// An entry stores its name lowercased and without the zone's origin but for the origin's
// first byte (its first label's length; the root's zero): every name looked up is in the
// zone, so the origin would be the same bytes in every entry (11 of the 19 bytes of
// h12345.bench.test.). The apex is then one byte, and the empty-named entry NSEC3 owners
// share (size 0) still matches no name.
class FastIndex {
 public:
  FastIndex();
  // Every name of `zone` (for a patched zone: its base's table, then the patch's). It reads
  // the (base) zone's name index: valid while that zone lives, as ServedZone::zone is.
  explicit FastIndex(const zone::Zone& zone) : FastIndex(zone, nullptr) {}
  // The same, taking the base's table from `previous` when it was built for the same base
  // zone: a write then costs a table of the patched names alone. With `signatures`, a signed
  // zone's index for queries with the DO bit: each RRset's answer carries its RRSIGs.
  FastIndex(const zone::Zone& zone, const FastIndex* previous, bool signatures = false);

  // The entry for a lowercase wire name in this zone (at or below its origin) whose hash is
  // zone::hash_lower_wire(lower_wire).
  const std::uint8_t* find(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
    if (patch_ != nullptr) [[unlikely]] return find_patched(lower_wire, hash);
    return find_shared(lower_wire, hash);
  }
  // The lookup in the shared table alone.
  const std::uint8_t* find_shared(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const {
    return find_in(arena_, at_, index_, lower_wire, hash, origin_cut_);
  }
  // The two halves of warming a lookup of `hash` before doing it: first the index slot, then
  // (once that slot has arrived) the entry it points at, first two cache lines. Inlined for
  // the reason NameIndex::prefetch is. The shared table only: a patch is small and hot.
  [[gnu::always_inline]] void prefetch_slot(std::uint64_t hash) const { index_.prefetch(hash); }
  [[gnu::always_inline]] void prefetch_entry(std::uint64_t hash) const {
    if (auto value = index_.home_value(hash)) {
      const std::uint8_t* entry = arena_ + at_[*value];
      __builtin_prefetch(entry);
      __builtin_prefetch(entry + 64);
    }
  }
  // The zone whose names the shared table holds (a patched zone's base).
  const zone::Zone* table_zone() const { return table_zone_; }
  std::size_t memory_bytes() const;

 private:
  // The entry for `lower_wire` among those `index` finds in `arena` (value v: the entry at
  // at[v]), whose names are stored without the last `cut` bytes. A name shorter than that
  // (none is: see find) gets a huge stored size that no entry's size byte equals.
  static const std::uint8_t* find_in(const std::uint8_t* arena, const std::uint32_t* at, zone::NameIndex::View index,
                                     std::span<const std::uint8_t> lower_wire, std::uint64_t hash, std::size_t cut) {
    std::size_t stored = lower_wire.size() - cut;
    auto value = index.find(hash, [&](std::uint32_t candidate) {
      const std::uint8_t* entry = arena + at[candidate];
      return entry[0] == stored && equal_stored_name(entry + 1, lower_wire.data(), stored);
    });
    return value ? arena + at[*value] : nullptr;
  }
  // A base table reads its zone's name index (zone::Zone::index_view: one table of slots per
  // zone, not two) and keeps only each name's entry offset, by index value; a patch's table
  // has an index of its own over its few names.
  struct Table {
    const std::uint8_t* find(std::span<const std::uint8_t> lower_wire, std::uint64_t hash, std::size_t cut) const {
      return find_in(arena.data(), at.data(), index, lower_wire, hash, cut);
    }
    std::vector<std::uint8_t, base::HugePageAllocator<std::uint8_t>> arena;  // read at random by every lookup
    std::vector<std::uint32_t> at;  // index value -> entry offset in arena
    zone::NameIndex own;            // a patch's index (empty for a base table)
    zone::NameIndex::View index;    // own's, or the base zone's (valid while that zone lives)
  };
  static std::shared_ptr<const Table> build(const zone::Zone& zone, bool signatures, std::size_t cut);
  static std::shared_ptr<const Table> build_patch(const zone::Zone& zone, int layer, bool signatures, std::size_t cut);
  // Writes the entry for `wire` (empty: the NSEC3 owners' shared entry), its name stored
  // without its last `cut` bytes: entry_size() bytes, into a writer that has room for them.
  static void add(base::SpanWriter& out, std::span<const std::uint8_t> wire, FastEntry::Kind kind,
                  std::span<const zone::RRset> rrsets, bool signatures, std::size_t cut);

  // A patched zone's lookup: the patch first (out of line, so the common lookup stays small).
  const std::uint8_t* find_patched(std::span<const std::uint8_t> lower_wire, std::uint64_t hash) const;
  // Sets arena_, at_ and index_ from table_.
  void point_at_table();

  // The shared table's arena, offsets and slots, kept here beside patch_ so a lookup reads
  // them from the ServedZone's own cache line instead of following table_ first.
  const std::uint8_t* arena_ = nullptr;
  const std::uint32_t* at_ = nullptr;
  zone::NameIndex::View index_;
  std::size_t origin_cut_ = 0;  // the origin's wire size less one: what each stored name leaves out
  const Table* patch_ = nullptr;  // a patched zone's newer layer (zone.h): set for every patched zone
  std::shared_ptr<const Table> table_;
  std::shared_ptr<const Table> patch_owner_;
  std::shared_ptr<const Table> older_;  // its older layer, shared while the zone's is
  const void* older_layer_ = nullptr;
  const zone::Zone* table_zone_ = nullptr;
  bool signatures_ = false;
};

}  // namespace cutover::auth
