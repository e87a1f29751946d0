// ZoneSet: picks the most specific served zone for a query name.
#include <algorithm>

#include "auth/engine.h"

namespace cutover::auth {

ZoneSet::ZoneSet(std::vector<std::shared_ptr<const zone::Zone>> zones) : zones_(std::move(zones)) {
  std::stable_sort(zones_.begin(), zones_.end(), [](const auto& a, const auto& b) {
    return a->origin().label_count() > b->origin().label_count();
  });
  for (const auto& zone : zones_) {
    served_.push_back(ServedZone{zone.get(), zone->origin().label_count(), NegativeTemplate(*zone), FastIndex(*zone)});
  }
}

const zone::Zone* ZoneSet::find(const dns::Name& name) const {
  for (const auto& zone : zones_) {
    if (name.is_subdomain_of(zone->origin())) return zone.get();
  }
  return nullptr;
}

const ServedZone* ZoneSet::find_lower(std::span<const std::uint8_t> lower_wire,
                                      std::span<const std::uint8_t> label_starts) const {
  for (const auto& served : served_) {
    const auto& origin = served.zone->origin_lower();
    std::size_t origin_labels = served.origin_labels;
    if (origin_labels > label_starts.size()) continue;
    // The origin must match whole labels: compare from the label boundary it would start at.
    std::size_t start = origin_labels == label_starts.size() ? 0
                        : origin_labels == 0                  ? lower_wire.size() - 1
                                                              : label_starts[label_starts.size() - origin_labels];
    if (lower_wire.size() - start == origin.size() && zone::equal_bytes(lower_wire.data() + start, origin.data(), origin.size())) {
      return &served;
    }
  }
  return nullptr;
}

}  // namespace cutover::auth
