// OwnerNumbering: the owners of a list of records numbered 0, 1, ... in order of first
// appearance, with a NameIndex from each owner's lowercase wire form to its number. The
// checks build it once and Zone::build reuses it, so a load hashes each owner only once.
// OwnerNumberer is single-threaded; the result is a plain value.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "dns/name.h"
#include "zone/name_index.h"

namespace cutover::zone {

struct OwnerNumbering {
  static constexpr std::uint32_t kOutside = 0xFFFFFFFF;
  // Per record, in record order: its owner's number, or kOutside when the owner is not at
  // or below the origin. A number first seen at record i is the count of owners before it.
  std::vector<std::uint32_t> owner_of;
  std::uint32_t owners = 0;
  NameIndex index;  // lowercase owner wire -> owner number
};

// Numbers owners as they are added. The table lookups trail the adds by a short batch, whose
// slots are prefetched when added, so the cache misses of a large zone overlap.
class OwnerNumberer {
 public:
  // Room for `records` records; the owners passed to add() must outlive finish().
  OwnerNumberer(const dns::Name& origin, std::size_t records);

  // The next record's owner.
  void add(const dns::Name& owner);
  OwnerNumbering finish() &&;

 private:
  static constexpr std::size_t kBatch = 16;
  enum class Kind : std::uint8_t { kSameAsPrevious, kOutside, kLookup };
  struct Pending {
    Kind kind = Kind::kOutside;
    const dns::Name* owner = nullptr;
    std::uint64_t hash = 0;
    std::optional<LowerName> lower;  // kLookup only
  };
  void resolve_oldest();

  LowerName origin_;
  std::size_t origin_labels_ = 0;
  OwnerNumbering numbering_;
  std::vector<const dns::Name*> first_spelling_;  // per owner number
  const dns::Name* previous_ = nullptr;
  std::array<Pending, kBatch> pending_;
  std::size_t oldest_ = 0;
  std::size_t pending_count_ = 0;
};

}  // namespace cutover::zone
