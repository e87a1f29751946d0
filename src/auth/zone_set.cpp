// ZoneSet: picks the most specific served zone for a query name.
#include <algorithm>
#include <atomic>

#include "auth/dnssec.h"
#include "auth/engine.h"
#include "auth/online_signing.h"
#include "auth/views.h"

namespace cutover::auth {
namespace {

std::uint64_t next_generation() {
  static std::atomic<std::uint64_t> generations{0};
  return generations.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace

ZoneSet::ZoneSet(std::vector<std::shared_ptr<const zone::Zone>> zones, const ZoneSet* previous)
    : zones_(std::move(zones)) {
  std::stable_sort(zones_.begin(), zones_.end(), [](const auto& a, const auto& b) {
    return a->origin().label_count() > b->origin().label_count();
  });
  for (const auto& zone : zones_) {
    // Reusing by identity is safe: a Zone is immutable, and the previous set's served form
    // holds a pointer to it that this set's zones_ keeps alive as well.
    auto reused = previous != nullptr ? previous->served_of(zone.get()) : nullptr;
    // ... unless the zone's online signer changed since (new keys or policy on a reload).
    if (reused != nullptr) {
      const OnlineSigner* was = reused->dnssec != nullptr ? reused->dnssec->online().get() : nullptr;
      if (was != nullptr || !zone::is_signed(*zone)) {
        if (was != online_signer(zone->origin()).get()) reused = nullptr;
      }
    }
    if (reused != nullptr) {
      served_.push_back(std::move(reused));
      continue;
    }
    // A patched zone shares its base's fast table with the served form that has it.
    const FastIndex* shared = previous != nullptr && zone->base() != nullptr ? previous->fast_of(zone->base().get()) : nullptr;
    served_.push_back(std::make_shared<const ServedZone>(
        ServedZone{zone.get(), zone->origin().label_count(), NegativeTemplate(*zone), FastIndex(*zone, shared),
                   SignedZone::prepare(*zone), next_generation(), zone->has_cuts()}));
  }
  index_origins();
}

void ZoneSet::index_origins() {
  origins_.clear();
  for (const auto& served : served_) {
    const auto& lower = served->zone->origin_lower();
    origins_.push_back(Origin{lower.data(), static_cast<std::uint32_t>(lower.size()),
                              static_cast<std::uint32_t>(served->origin_labels), served.get()});
  }
}

std::shared_ptr<const ServedZone> ZoneSet::served_of(const zone::Zone* zone) const {
  for (std::size_t i = 0; i < zones_.size(); ++i) {
    if (zones_[i].get() == zone) return served_[i];
  }
  return nullptr;
}

std::shared_ptr<const ZoneSet> ZoneSet::with_views(const ZoneSet& base, std::shared_ptr<const ViewTable> views) {
  auto set = std::shared_ptr<ZoneSet>(new ZoneSet());
  set->zones_ = base.zones_;
  set->served_ = base.served_;
  set->views_ = std::move(views);
  set->index_origins();
  return set;
}

std::shared_ptr<const ZoneSet> ZoneSet::overlay(const ZoneSet& own, const ZoneSet& base) {
  auto set = std::shared_ptr<ZoneSet>(new ZoneSet());
  set->zones_ = own.zones_;
  set->served_ = own.served_;
  for (std::size_t i = 0; i < base.zones_.size(); ++i) {
    const auto& origin = base.zones_[i]->origin();
    bool replaced = std::any_of(own.zones_.begin(), own.zones_.end(),
                                [&](const auto& zone) { return zone->origin() == origin; });
    if (replaced) continue;
    set->zones_.push_back(base.zones_[i]);
    set->served_.push_back(base.served_[i]);
  }
  // Longest origin first, as the constructor orders them; both lists move together.
  std::vector<std::size_t> index(set->zones_.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
  std::stable_sort(index.begin(), index.end(), [&](std::size_t a, std::size_t b) {
    return set->zones_[a]->origin().label_count() > set->zones_[b]->origin().label_count();
  });
  std::vector<std::shared_ptr<const zone::Zone>> zones;
  std::vector<std::shared_ptr<const ServedZone>> served;
  for (std::size_t i : index) {
    zones.push_back(set->zones_[i]);
    served.push_back(set->served_[i]);
  }
  set->zones_ = std::move(zones);
  set->served_ = std::move(served);
  set->index_origins();
  return set;
}

const FastIndex* ZoneSet::fast_of(const zone::Zone* base) const {
  for (const auto& served : served_) {
    if (served->fast.table_zone() == base) return &served->fast;
  }
  return nullptr;
}

const zone::Zone* ZoneSet::find(const dns::Name& name) const {
  for (const auto& zone : zones_) {
    if (name.is_subdomain_of(zone->origin())) return zone.get();
  }
  return nullptr;
}

const ServedZone* ZoneSet::find_lower(std::span<const std::uint8_t> lower_wire,
                                      std::span<const std::uint8_t> label_starts) const {
  for (const Origin& origin : origins_) {
    std::size_t origin_labels = origin.labels;
    if (origin_labels > label_starts.size()) continue;
    // The origin must match whole labels: compare from the label boundary it would start at.
    std::size_t start = origin_labels == label_starts.size() ? 0
                        : origin_labels == 0                  ? lower_wire.size() - 1
                                                              : label_starts[label_starts.size() - origin_labels];
    if (lower_wire.size() - start == origin.size && zone::equal_bytes(lower_wire.data() + start, origin.lower, origin.size)) {
      return origin.served;
    }
  }
  return nullptr;
}

}  // namespace cutover::auth
