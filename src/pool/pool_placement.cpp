// The placement rules of pools in the zones they are answered from.
#include "pool/pool_placement.h"

#include <algorithm>

#include <fmt/format.h>

#include "auth/views.h"

namespace cutover::pool {
namespace {

// The records materialize mode writes at a pool's name (TXT: the all-down nodata marker).
bool is_materialized_type(dns::RRType type) {
  return type == dns::RRType::A || type == dns::RRType::AAAA || type == dns::RRType::TXT;
}

}  // namespace

base::Status check_pool_placement(const std::vector<PoolSpec>& specs, const auth::ZoneSet* zones, bool materializing) {
  for (const auto& spec : specs) {
    auto problem = [&](const std::string& what, const std::string& view) {
      return base::make_error(base::ErrorCode::kInvalidArgument,
                              fmt::format("pools.{}.name: {} {}{}", spec.name, spec.owner.to_text(), what,
                                          view.empty() ? "" : " (view " + view + ")"));
    };
    // The zone sets it is answered from: the default zones and each view's (auth/views.h)
    // that its `views:` holds (all of them without the key).
    std::vector<std::pair<std::string, const auth::ZoneSet*>> sets;
    if (zones != nullptr && (spec.view_mask & auth::kDefaultViewBit) != 0) sets.emplace_back("", zones);
    if (zones != nullptr && zones->views() != nullptr) {
      for (const auto& view : zones->views()->views()) {
        if ((spec.view_mask & view.bit) != 0) sets.emplace_back(view.name, view.zones.get());
      }
    }
    bool limited = !spec.views.empty();
    bool inside_any = false;
    for (const auto& [view, set] : sets) {
      const zone::Zone* zone = set->find(spec.owner);
      if (zone == nullptr) {
        // A pool limited to views must be answerable in each; one for every view, in one at least.
        if (limited) return problem("is outside every zone served", view.empty() ? "default" : view);
        continue;
      }
      inside_any = true;
      if (zone->find_delegation(spec.owner) != nullptr) return problem("lies at or below a delegation", view);
      const zone::Node* node = zone->find(spec.owner);
      bool own_records_only = materializing && spec.serve == ServeMode::kMaterialize;
      if (node != nullptr && std::ranges::any_of(node->rrsets(), [&](const zone::RRset& rrset) {
            return !(own_records_only && is_materialized_type(rrset.type));
          })) {
        return problem("also has static records in zone " + zone->origin().to_text() +
                           " (a name is either a pool or zone data)",
                       view);
      }
    }
    if (!inside_any) return problem("is outside every served zone", "");
  }
  return {};
}

}  // namespace cutover::pool
