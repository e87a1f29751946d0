// ZoneSet: picks the most specific served zone for a query name.
#include <algorithm>

#include "auth/engine.h"

namespace cutover::auth {

ZoneSet::ZoneSet(std::vector<std::shared_ptr<const zone::Zone>> zones) : zones_(std::move(zones)) {
  std::stable_sort(zones_.begin(), zones_.end(), [](const auto& a, const auto& b) {
    return a->origin().label_count() > b->origin().label_count();
  });
}

const zone::Zone* ZoneSet::find(const dns::Name& name) const {
  for (const auto& zone : zones_) {
    if (name.is_subdomain_of(zone->origin())) return zone.get();
  }
  return nullptr;
}

}  // namespace cutover::auth
