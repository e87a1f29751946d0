// Steering by client network (docs/steering.md): a pool's endpoints belong to regions, a
// networks file maps client prefixes to regions, and each region has an order of regions to
// answer from. The answer builder gives each region the endpoints of the first region in its
// order with one serving, then any serving endpoint of the pool, then when-all-down; the
// engine picks the region per query from the client's network (auth::DynamicAnswer::choose).
// Plain values, read-only once built.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "base/network_table.h"
#include "base/result.h"

namespace cutover::pool {

struct RegionSpec {
  std::string name;
  // Regions to answer this region's clients from, most preferred first; starts with itself.
  std::vector<std::string> order;
};

struct SteeringSpec {
  std::string networks_file;  // as resolved (absolute or relative to the config's directory)
  // Client prefix -> index into `regions`; null: the pool is not steered.
  std::shared_ptr<const base::NetworkTable> networks;
  std::vector<RegionSpec> regions;
  std::size_t default_region = 0;  // for clients no prefix covers

  bool enabled() const { return networks != nullptr; }
  // The index of a region by name, or regions.size().
  std::size_t find(const std::string& region) const;
};

// The regions of a pool in the order first named, each ordered itself first and then the
// others in that order (the order a `regions:` mapping does not override).
std::vector<RegionSpec> default_region_orders(const std::vector<std::string>& names);

// Reads a networks file: one "PREFIX REGION" per line (a bare address is its /32 or /128),
// blank lines and `#` comments ignored. Every region must be one of `regions`, host bits must be
// clear, no prefix may be listed twice. Errors read "FILE:LINE:COL: message".
base::Result<base::NetworkTable> parse_networks(const std::string& text, const std::string& label,
                                                const std::vector<RegionSpec>& regions);
base::Result<base::NetworkTable> load_networks_file(const std::string& path, const std::vector<RegionSpec>& regions);

}  // namespace cutover::pool
