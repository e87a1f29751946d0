// The zone example.test. that the UPDATE and zone transfer targets start from, as a store
// ZoneData: the server's zone for update_message, the secondary's current copy (serial
// 2024010101) for transfer_stream. fuzz/capture_corpus.py serves this same text from a real
// cutover to capture the seed UPDATEs and AXFR/IXFR streams, so the seeds apply to it.
// Header-only; the zone is built once, read-only after.
#pragma once

#include <vector>

#include "dns/name.h"
#include "store/zone_data.h"
#include "zone/master_parser.h"

namespace cutover::fuzz {

inline constexpr char kExampleZoneText[] = R"zone($TTL 300
@ IN SOA ns1 hostmaster 2024010101 3600 600 86400 300
@ IN NS ns1
@ IN NS ns2
@ IN MX 10 mail
ns1 IN A 192.0.2.53
ns2 IN AAAA 2001:db8::53
www IN A 192.0.2.1
www IN A 192.0.2.2
mail IN A 192.0.2.25
alias IN CNAME www
txt IN TXT "v=spf1 -all"
_sip._tcp IN SRV 10 60 5060 www
)zone";

inline const store::ZoneData& example_zone() {
  static const store::ZoneData zone = [] {
    dns::Name origin = *dns::Name::from_text("example.test.");
    auto parsed = zone::parse_master_text(origin, kExampleZoneText, "fuzz_zone.h");
    std::vector<dns::ResourceRecord> records;
    for (auto& record : parsed.records) records.push_back(std::move(record.record));
    return store::ZoneData::from_records(origin, records);
  }();
  return zone;
}

}  // namespace cutover::fuzz
