// Reading Unbound's own state through unbound-control (unbound-control(8)): the parsers of
// `dump_cache` (RRset and message cache entries, with remaining TTL and trust) and `dump_infra`
// (per-server RTT state), kept apart from the adapter so they are tested on fixed text. Pure
// functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cutover::lab {

// The name of Unbound's rrset trust level (enum rrset_trust, util/data/packed_rrset.h), e.g.
// 5 -> "ans_noAA" (answer section of a non-authoritative answer), 8 -> "ans_AA".
std::string unbound_trust_name(int trust);

// The entries of a `dump_cache` text whose owner is one of `names` or below one:
// {"rrsets": [{"name","type","ttl","trust","trust_name","data":[...]}],
//  "messages": [{"name","type","rcode","ttl"}]}. TTLs are the remaining seconds.
nlohmann::json parse_unbound_cache_dump(const std::string& dump, const std::vector<std::string>& names);

// Every server line of a `dump_infra` text: [{"address","zone","ttl","rtt","rto",...}]: the
// numeric fields as numbers, the lameness counters as lame_dnssec, lame_rec, lame_A, lame_other.
nlohmann::json parse_unbound_infra(const std::string& dump);

}  // namespace cutover::lab
