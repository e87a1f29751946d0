// The lab authority's query interceptor: counts every query per (name, type), applies the
// outage mode of the queried name or zone (drop, REFUSED, SERVFAIL) before the answer engine,
// and answers itself for zones that add their NS RRset to positive answers.
// Thread-safe (reads LabModel's snapshot, counts under its lock).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "lab/authority/lab_model.h"
#include "server/server.h"

namespace cutover::lab {

// `model` must outlive the returned interceptor.
server::QueryInterceptor make_lab_interceptor(LabModel& model);

// A header-only reply to `query` with `rcode` and the question echoed; empty if the query is unreadable.
std::vector<std::uint8_t> error_reply(std::span<const std::uint8_t> query, dns::Rcode rcode);

}  // namespace cutover::lab
