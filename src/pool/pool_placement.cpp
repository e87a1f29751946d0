// The placement rules of pools in the zones they are answered from.
#include "pool/pool_placement.h"

#include <algorithm>

#include <fmt/format.h>

namespace cutover::pool {
namespace {

// The records materialize mode writes at a pool's name (TXT: the all-down nodata marker).
bool is_materialized_type(dns::RRType type) {
  return type == dns::RRType::A || type == dns::RRType::AAAA || type == dns::RRType::TXT;
}

}  // namespace

base::Status check_pool_placement(const std::vector<PoolSpec>& specs, const auth::ZoneSet* zones, bool materializing) {
  for (const auto& spec : specs) {
    const zone::Zone* zone = zones ? zones->find(spec.owner) : nullptr;
    auto problem = [&](const std::string& what) {
      return base::make_error(base::ErrorCode::kInvalidArgument,
                              fmt::format("pools.{}.name: {} {}", spec.name, spec.owner.to_text(), what));
    };
    if (zone == nullptr) return problem("is outside every served zone");
    if (zone->find_delegation(spec.owner) != nullptr) return problem("lies at or below a delegation");
    const zone::Node* node = zone->find(spec.owner);
    bool own_records_only = materializing && spec.serve == ServeMode::kMaterialize;
    if (node != nullptr && std::any_of(node->rrsets.begin(), node->rrsets.end(), [&](const zone::RRset& rrset) {
          return !(own_records_only && is_materialized_type(rrset.type));
        })) {
      return problem("also has static records in zone " + zone->origin().to_text() +
                     " (a name is either a pool or zone data)");
    }
  }
  return {};
}

}  // namespace cutover::pool
