// The answer fast path: for the common query shapes (one question, class IN, optional
// EDNS without options, a name that holds plain RRsets, a pool name, or a name that does
// not exist in a zone without cuts, DNAMEs or wildcards) it decides and encodes the answer
// straight from the packet, without allocating. Everything else returns false and takes the general pipeline, whose
// output this path reproduces byte for byte. Thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "auth/engine.h"

namespace cutover::auth {

// True when it wrote the complete response and filled `outcome` (qname only if `describe`).
// Names owned by a pool in `pools` (may be null) are answered from its pre-encoded records.
bool try_fast_answer(const ZoneSet& zones, const pool::PoolAnswers* pools, std::span<const std::uint8_t> query,
                     Transport transport, std::vector<std::uint8_t>& response, QueryOutcome& outcome, bool describe);

}  // namespace cutover::auth
