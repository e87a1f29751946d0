// Owner numbering: one hash and one probe of the lowercase wire name per owner change;
// records of one owner are usually adjacent, so the previous owner is compared first.
#include "zone/owner_numbering.h"

namespace cutover::zone {

namespace {

// A sizing that fits the usual zone (a few more records than owners) at a load factor of
// one half; a zone where every record has its own owner fills at most three quarters.
std::size_t index_size_for(std::size_t records) { return records * 2 / 3 + 1; }

}  // namespace

OwnerNumberer::OwnerNumberer(const dns::Name& origin, std::size_t records)
    : origin_(origin), origin_labels_(origin.label_count()) {
  numbering_.owner_of.reserve(records);
  // Owner numbers stay below `records`; the zone adds its empty non-terminals after them, and
  // builds its own table when they would not fit below the limit (Zone::index_names).
  numbering_.index = NameIndex(index_size_for(records), records * 2 + 16);
  first_spelling_.reserve(records);
}

void OwnerNumberer::add(const dns::Name& owner) {
  if (pending_count_ == kBatch) resolve_oldest();
  Pending& next = pending_[(oldest_ + pending_count_++) % kBatch];
  next.owner = &owner;
  bool same = previous_ != nullptr && owner == *previous_;
  previous_ = &owner;
  if (same) {
    next.kind = Kind::kSameAsPrevious;
    return;
  }
  const LowerName& lower = next.lower.emplace(owner);
  // At or below the origin: the origin's wire form ends the name at a label boundary.
  auto tail = lower.suffix(origin_labels_);
  if (lower.label_count < origin_labels_ || tail.size() != origin_.size ||
      !equal_bytes(tail.data(), origin_.wire.data(), tail.size())) {
    next.kind = Kind::kOutside;
    return;
  }
  next.kind = Kind::kLookup;
  next.hash = hash_lower_wire(lower.all());
  numbering_.index.prefetch(next.hash);
}

void OwnerNumberer::resolve_oldest() {
  Pending& oldest = pending_[oldest_];
  oldest_ = (oldest_ + 1) % kBatch;
  --pending_count_;
  auto& owner_of = numbering_.owner_of;
  switch (oldest.kind) {
    case Kind::kSameAsPrevious:
      owner_of.push_back(owner_of.back());
      return;
    case Kind::kOutside:
      owner_of.push_back(OwnerNumbering::kOutside);
      return;
    case Kind::kLookup:
      break;
  }
  auto wire = oldest.lower->all();
  auto found = numbering_.index.find(oldest.hash, [&](std::uint32_t value) { return same_name(*first_spelling_[value], wire); });
  if (!found) {
    found = numbering_.owners++;
    numbering_.index.insert(oldest.hash, *found);
    first_spelling_.push_back(oldest.owner);
  }
  owner_of.push_back(*found);
}

OwnerNumbering OwnerNumberer::finish() && {
  while (pending_count_ > 0) resolve_oldest();
  return std::move(numbering_);
}

}  // namespace cutover::zone
