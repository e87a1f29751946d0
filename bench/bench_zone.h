// The in-memory zone and queries the micro-benchmarks share: the same shape as the zone
// bench/compare generates (host names with A records under bench.test.). Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "auth/engine.h"
#include "zone/zone.h"

namespace cutover::bench {

constexpr std::size_t kBenchNames = 100'000;

// The zone, built once on first use.
const std::shared_ptr<const zone::Zone>& bench_zone();
const auth::ZoneSet& bench_zone_set();
// A query for h<index>.bench.test. with `type`, optionally with an EDNS OPT record.
std::vector<std::uint8_t> bench_query(const std::string& qname, dns::RRType type, bool edns = false);
std::string host_name(std::size_t index);

}  // namespace cutover::bench
