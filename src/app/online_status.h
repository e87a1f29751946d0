// The zones signed online (auth/online_signing.h) as /status and /metrics show them
// (docs/dnssec.md, "Online signing"): keys with their states, the window of the signatures
// made now, and the signature cache's counters. Reads the signer registry; thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace cutover::app {

// The "dnssec_online" member of /status: one object per zone signed online.
nlohmann::json online_signing_status(std::uint32_t now);
// cutover_dnssec_online_signed_rrsets_total and cutover_dnssec_online_cache_hits_total per zone.
std::string online_signing_metrics();

}  // namespace cutover::app
