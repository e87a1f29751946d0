// The secondary's requests to its primary: the SOA check (RFC 1035 §4.3.5) and one AXFR or
// IXFR over TCP read through TransferReader. Stateless free functions; thread-safe.
// Blocking: called only from the secondary's worker thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>

#include "base/result.h"
#include "dns/message.h"
#include "net/address.h"
#include "replication/secondary/transfer_reader.h"
#include "tsig/key.h"

namespace cutover::replication {

struct PullOptions {
  std::chrono::milliseconds timeout{10000};  // per reply (the SOA answer, each transfer message)
  std::size_t max_bytes = 0;                 // of the whole transfer stream
  // Signs the SOA query and the transfer request; every reply must verify (RFC 8945 §5.3.1).
  std::optional<tsig::Key> key;
};

// The primary's SOA for `origin`, asked over UDP (TCP when truncated); with `options.key`
// signed and over TCP, and the reply must verify. Fails unless the reply is an
// authoritative NOERROR with the zone's SOA in the answer.
base::Result<dns::SoaFields> query_primary_soa(const net::SocketAddress& primary, const dns::Name& origin,
                                               const PullOptions& options);

// One transfer over TCP: IXFR from `current_soa` when given (RFC 1995 §3: our SOA in the
// authority section), else AXFR.
base::Result<Transfer> request_transfer(const net::SocketAddress& primary, const dns::Name& origin,
                                        const std::optional<dns::ResourceRecord>& current_soa,
                                        const PullOptions& options);

}  // namespace cutover::replication
