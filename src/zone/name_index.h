// NameIndex: an open-addressing hash table from owner names (compared without case) to a
// 32-bit value, probed with the lowercase wire form straight out of a query packet, so a
// lookup allocates nothing. Built once, then read-only: thread-safe for readers.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "base/huge_pages.h"
#include "dns/name.h"

namespace cutover::zone {

// A hash of lowercase wire bytes, eight at a time (names are short, so the per-byte loop of
// FNV-1a would dominate a lookup).
std::uint64_t hash_lower_wire(std::span<const std::uint8_t> lower_wire);

// Copies the `size` bytes of a wire name at `from` into `to` lowercased (ASCII capitals only;
// label length bytes, < 64, are left alone) and returns the
// hash_lower_wire() of the copy, in one pass (the answer fast path reads every query's name
// with it). `to` must have room for `size` rounded up to a multiple of eight; whole words are
// read from `from` only where its `available` bytes hold them.
std::uint64_t copy_lower_and_hash(std::uint8_t* to, const std::uint8_t* from, std::size_t size, std::size_t available);

// memcmp for the short strings names are, without a library call.
// Eight bytes at a time; from eight bytes up the tail is the last eight, overlapping words
// already compared, instead of a byte loop.
inline bool equal_bytes(const std::uint8_t* a, const std::uint8_t* b, std::size_t size) {
  auto word = [](const std::uint8_t* p) {
    std::uint64_t value;
    __builtin_memcpy(&value, p, 8);
    return value;
  };
  if (size >= 8) {
    for (std::size_t at = 0; at + 8 < size; at += 8) {
      if (word(a + at) != word(b + at)) return false;
    }
    return word(a + size - 8) == word(b + size - 8);
  }
  for (; size > 0; --size) {
    if (*a++ != *b++) return false;
  }
  return true;
}

// A name's lowercase wire form and where each label starts, on the stack, so hashing and
// comparing a Name against the index allocates nothing.
struct LowerName {
  // Left uninitialised: only wire[0, size) and labels[0, label_count) are ever written or
  // read, and zeroing 383 bytes per name was a fifth of the cost of numbering owners at load.
  std::array<std::uint8_t, dns::Name::kMaxWireLength> wire;
  std::size_t size = 0;
  std::array<std::uint8_t, 128> labels;
  std::size_t label_count = 0;

  explicit LowerName(const dns::Name& name) : LowerName(std::span<const std::uint8_t>(name.wire())) {}
  // `source`: a valid uncompressed wire name.
  explicit LowerName(std::span<const std::uint8_t> source) {
    size = source.size();
    for (std::size_t pos = 0; source[pos] != 0; pos += 1u + source[pos]) labels[label_count++] = static_cast<std::uint8_t>(pos);
    for (std::size_t i = 0; i < size; ++i) wire[i] = dns::ascii_lower(source[i]);
  }
  std::span<const std::uint8_t> all() const { return {wire.data(), size}; }
  // The name with only its rightmost `count` labels.
  std::span<const std::uint8_t> suffix(std::size_t count) const {
    if (count == 0) return {wire.data() + size - 1, 1};
    std::size_t start = count >= label_count ? 0 : labels[label_count - count];
    return {wire.data() + start, size - start};
  }
};

class NameIndex {
 public:
  NameIndex() = default;
  // Room for `expected` names at a load factor of at most one half, holding values below
  // `value_limit` (at most 0xFFFFFFFF; by default `expected`). The smaller the limit, the
  // more of each 4-byte slot is left to the hash tag (see Slot).
  explicit NameIndex(std::size_t expected) : NameIndex(expected, expected) {}
  NameIndex(std::size_t expected, std::size_t value_limit);

  // Adds `value` (below value_limit()) for a name not yet present (caller guarantees uniqueness).
  void insert(std::uint64_t hash, std::uint32_t value);
  // The stored value whose name `equal(value)` confirms, among those with this hash.
  template <typename Equal>
  std::optional<std::uint32_t> find(std::uint64_t hash, Equal&& equal) const {
    return view().find(hash, std::forward<Equal>(equal));
  }
  // Starts loading the slot a lookup of `hash` reads first, so lookups of a batch of names
  // can overlap their cache misses (prefetch every slot, then look up). Always inlined: GCC
  // takes a function that only prefetches for a pure one and drops the calls to it.
  [[gnu::always_inline]] void prefetch(std::uint64_t hash) const { view().prefetch(hash); }
  // The value in the slot a lookup of `hash` reads first, whatever name it holds: what a
  // lookup will most likely compare (at a load of at most one half, most names sit in that
  // slot), for prefetching it. Reads the slot prefetch() loaded.
  std::optional<std::uint32_t> home_value(std::uint64_t hash) const { return view().home_value(hash); }
  std::size_t slot_count() const { return slots_.size(); }
  // Every value inserted is below this.
  std::size_t value_limit() const { return std::size_t{value_mask_}; }
  std::size_t memory_bytes() const { return slots_.capacity() * sizeof(Slot); }

 private:
  // A slot is one 32-bit word: the value in its low bits (as many as value_limit needs) and,
  // above them, as many of the hash's high bits as are left, a tag that ends most mismatches
  // without touching the name. Values below a million take 20 bits and leave a 12-bit tag
  // (one false match in 4096 probes), in half the bytes of a separate tag and value. The
  // value mask itself is never a value, so an all-ones word is never a slot in use.
  using Slot = std::uint32_t;
  static constexpr Slot kEmpty = 0xFFFFFFFF;

 public:
  // The table's slots seen through two words, for a reader that keeps them beside its other
  // hot fields (the answer fast path's FastIndex) while the table lives elsewhere, shared.
  // The table's own lookups go through it too.
  class View {
   public:
    View() = default;
    template <typename Equal>
    std::optional<std::uint32_t> find(std::uint64_t hash, Equal&& equal) const {
      if (slots_ == nullptr) return std::nullopt;
      auto tag = static_cast<std::uint32_t>(hash >> 32);
      for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
        Slot slot = slots_[i];
        if (slot == kEmpty) return std::nullopt;
        // The tag bits (the slot's above the value's) agree exactly when what differs from
        // the hash's high half lies within the value's bits.
        if ((slot ^ tag) <= value_mask_ && equal(slot & value_mask_)) return slot & value_mask_;
      }
    }
    // find() for a view of a constructed table (never empty: NameIndex(expected) has slots),
    // without the test for a default one. The probe loop is written out in both: find()
    // calling this one cost the static answer path 17 instructions per query in the perf gate
    // (GCC 12 then keeps less of FastIndex's lookup inline), so they stay twins.
    template <typename Equal>
    std::optional<std::uint32_t> find_in_slots(std::uint64_t hash, Equal&& equal) const {
      auto tag = static_cast<std::uint32_t>(hash >> 32);
      for (std::size_t i = hash & mask_;; i = (i + 1) & mask_) {
        Slot slot = slots_[i];
        if (slot == kEmpty) return std::nullopt;
        if ((slot ^ tag) <= value_mask_ && equal(slot & value_mask_)) return slot & value_mask_;
      }
    }
    [[gnu::always_inline]] void prefetch(std::uint64_t hash) const {
      if (slots_ != nullptr) __builtin_prefetch(&slots_[hash & mask_]);
    }
    std::optional<std::uint32_t> home_value(std::uint64_t hash) const {
      if (slots_ == nullptr) return std::nullopt;
      Slot slot = slots_[hash & mask_];
      if (slot == kEmpty) return std::nullopt;
      return slot & value_mask_;
    }

   private:
    friend class NameIndex;
    View(const Slot* slots, std::uint32_t mask, std::uint32_t value_mask) : slots_(slots), mask_(mask), value_mask_(value_mask) {}
    const Slot* slots_ = nullptr;
    std::uint32_t mask_ = 0;
    std::uint32_t value_mask_ = 0;
  };
  // Valid while this table lives and is not changed.
  View view() const {
    return slots_.empty() ? View() : View(slots_.data(), static_cast<std::uint32_t>(slots_.size() - 1), value_mask_);
  }

 private:
  std::vector<Slot, base::HugePageAllocator<Slot>> slots_;  // read at random by every lookup
  std::uint32_t value_mask_ = 0;  // 2^k - 1 for the smallest k with value_limit <= 2^k - 1
};

// True when `name` (any case) has the lowercase wire form `lower_wire`.
bool same_name(std::span<const std::uint8_t> wire, std::span<const std::uint8_t> lower_wire);
inline bool same_name(const dns::Name& name, std::span<const std::uint8_t> lower_wire) {
  return same_name(std::span<const std::uint8_t>(name.wire()), lower_wire);
}

}  // namespace cutover::zone
