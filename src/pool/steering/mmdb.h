// Client networks from a MaxMind DB (docs/steering.md, "MaxMind databases"): the networks of a
// GeoIP2, GeoLite2 or self-written `.mmdb` file, each mapped to a pool region by one field of
// its record (country.iso_code by default), read through libmaxminddb once per load into the
// same NetworkTable a plain networks file gives. Queries never touch the database: the table
// is what the answer path looks up. Plain functions; no state.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "base/network_table.h"
#include "base/result.h"
#include "pool/steering/steering.h"

namespace cutover::pool {

struct MmdbNetworks {
  std::string path;  // as resolved
  // The record's field that decides the region, one map key per element ({"country", "iso_code"}).
  std::vector<std::string> field{"country", "iso_code"};
  // Field value -> region name; empty: a value is the name of its region. A network whose value
  // maps to no region is left out, so its clients get the default region.
  std::map<std::string, std::string> map;
};

// What a load read, for `cutover status` and for errors that say why nothing matched.
struct MmdbSummary {
  std::size_t networks = 0;  // data records in the search tree (IPv4 aliases counted once)
  std::size_t mapped = 0;    // of those, mapped to a region (neighbours of one region share a prefix of the table)
  std::string sample_value;  // the first field value read that maps to no region, if any
};

// Reads every network of the database and keeps those whose field maps to one of `regions`;
// an IPv6 database's IPv4 part (::/96 and the aliases MaxMind writes at ::ffff:0:0/96 and
// 2002::/16) becomes IPv4 prefixes, read once. Fails naming the file when it is not a MaxMind
// DB, its search tree is corrupt, or no network maps to any region (a wrong field, most often).
base::Result<base::NetworkTable> load_mmdb_networks(const MmdbNetworks& source, const std::vector<RegionSpec>& regions,
                                                    MmdbSummary* summary = nullptr);

// "country.iso_code" -> {"country", "iso_code"}; nullopt-like error for an empty part.
base::Result<std::vector<std::string>> parse_mmdb_field(const std::string& text);

}  // namespace cutover::pool
