// The answer fast path: for the common query shapes (one question, class IN, optional
// EDNS without options or with a COOKIE, a name that holds plain RRsets, a dynamic (pool) name, or a name that does
// not exist in a zone without cuts, DNAMEs or wildcards) it decides and encodes the answer
// straight from the packet, without allocating. Everything else returns false and takes the general pipeline, whose
// output this path reproduces byte for byte. Thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "auth/engine.h"
#include "auth/fast_query.h"

namespace cutover::auth {

// True when it wrote the complete response and filled `outcome` (qname only if `describe`).
// Names held by `dynamic` (may be null) are answered from its pre-encoded records.
bool try_fast_answer(const ZoneSet& zones, const DynamicAnswers* dynamic, std::span<const std::uint8_t> query,
                     Transport transport, std::vector<std::uint8_t>& response, QueryOutcome& outcome, bool describe,
                     const ClientContext* client = nullptr);
// The same for a question read_fast_query() already read from `packet`, in the zone `served`
// that ZoneSet::find_lower() found for it; it settles the query's COOKIE reply in `query`.
bool answer_fast_query(const ServedZone& served, const DynamicAnswers* dynamic, std::span<const std::uint8_t> packet,
                       FastQuery& query, std::vector<std::uint8_t>& response, QueryOutcome& outcome, bool describe,
                       const ClientContext* client = nullptr);

}  // namespace cutover::auth
