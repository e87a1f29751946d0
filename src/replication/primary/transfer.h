// Outgoing zone transfers: AXFR (RFC 5936) from the served zone, IXFR (RFC 1995) from the
// journal's deltas, falling back to AXFR when the client's serial is not in the journal.
// Responses are split into messages of at most 64 KiB, never splitting a record.
// Stateless; thread-safe (reads an immutable zone and the thread-safe store).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dns/message.h"
#include "store/store.h"
#include "zone/zone.h"

namespace cutover::replication {

using Messages = std::vector<std::vector<std::uint8_t>>;

// Every record of `zone` in AXFR order: SOA, the rest, SOA again.
std::vector<dns::ResourceRecord> axfr_records(const zone::Zone& zone);

// The IXFR record sequence from `client_serial` to the zone's serial, or nullopt when the
// journal cannot bridge it (unknown or compacted serial). A client that is current gets the
// single SOA (RFC 1995 §2).
std::optional<std::vector<dns::ResourceRecord>> ixfr_records(const zone::Zone& zone, std::uint32_t client_serial,
                                                             store::Store* store);

// Packs `records` into as many messages as needed, each answering `query` (same ID,
// question, AA set). An empty list of records gives one message with no answers.
Messages pack_messages(const dns::Message& query, const std::vector<dns::ResourceRecord>& records,
                       dns::Rcode rcode = dns::Rcode::kNoError);

}  // namespace cutover::replication
