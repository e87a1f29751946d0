// MaterializedRecords: what a pool served in materialize mode writes into its zone for one
// answer snapshot: the A and AAAA RRsets at the pool's name with the pool's TTL, plus a TXT
// marker that keeps the name existing when the all-down policy leaves it without addresses
// (so resolvers get NODATA, never NXDOMAIN). Pure values and functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dns/name.h"
#include "dns/rdata.h"
#include "pool/pool_answers.h"

namespace cutover::pool {

struct MaterializedRecords {
  dns::Name owner;
  std::uint32_t ttl = 0;
  std::vector<dns::Rdata> a;     // sorted, so equal answer sets compare equal whatever the order
  std::vector<dns::Rdata> aaaa;  // sorted
  std::optional<dns::Rdata> marker;  // TXT rdata, present exactly when there is no address at all
  // A configured family is empty because the pool's policy says nodata: the write path's
  // floor must let this write empty the name's addresses (the operator chose it).
  bool emptied_by_policy = false;
  std::string summary;  // for history: "A 192.0.2.30 (healthy); AAAA 2001:db8::30 (fail-open)"

  // Same records (the summary is not compared: another mode may yield the same addresses).
  bool same_records(const MaterializedRecords& other) const;
};

// The records that serve `answer` as ordinary zone data. Expects a pool without per-query
// draws (weighted pools cannot be materialized; the config refuses them).
MaterializedRecords materialized_records(const PoolAnswer& answer);

}  // namespace cutover::pool
