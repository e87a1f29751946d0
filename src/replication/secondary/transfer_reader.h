// TransferReader: reads the reply stream of an AXFR (RFC 5936) or IXFR (RFC 1995) request,
// message by message, into a whole zone, a chain of deltas or "up to date", enforcing a
// byte limit; apply_transfer turns the result into the zone's next content.
// Not thread-safe (one reader per transfer); apply_transfer is a pure function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/result.h"
#include "dns/message.h"
#include "dns/name.h"
#include "store/zone_data.h"

namespace cutover::replication {

enum class TransferKind {
  kUpToDate,     // IXFR answered with the current SOA alone: nothing to fetch
  kFull,         // the whole zone (AXFR, or IXFR answered AXFR-style, RFC 1995 §4)
  kIncremental,  // IXFR deltas, oldest first
};

struct Transfer {
  TransferKind kind = TransferKind::kFull;
  std::uint32_t serial = 0;                  // the primary's serial
  std::vector<dns::ResourceRecord> records;  // kFull: every record, SOA first (no closing SOA)
  std::vector<store::Delta> deltas;          // kIncremental: each with its old and new SOA first
  std::size_t bytes = 0;                     // wire bytes received
  std::size_t messages = 0;
};

class TransferReader {
 public:
  // `type` is AXFR or IXFR; `max_bytes` bounds the wire bytes of the whole stream.
  TransferReader(dns::Name origin, dns::RRType type, std::size_t max_bytes);

  // Feeds one reply; true once the stream is complete. Errors: kLimit (over max_bytes),
  // kUnsupported (the primary answered with an error rcode: it refused or does not know
  // the request), kMalformed (records that do not form a transfer of this zone).
  base::Result<bool> add(const dns::Message& reply, std::size_t wire_size);
  // The result, once add() returned true.
  Transfer take() { return std::move(transfer_); }

 private:
  base::Result<bool> add_record(const dns::ResourceRecord& record);
  base::Result<bool> add_incremental(const dns::ResourceRecord& record, bool is_soa);

  enum class Stage { kFirstSoa, kSecond, kFull, kOldSoa, kRemovals, kAdditions, kDone };

  dns::Name origin_;
  dns::RRType type_;
  std::size_t max_bytes_;
  Stage stage_ = Stage::kFirstSoa;
  Transfer transfer_;
};

// The zone content `transfer` leads to from `current`. kIncremental: each delta's old SOA
// serial must be the serial reached so far, starting at `current`'s (else kInvalidArgument:
// the deltas are not for this copy). kUpToDate gives `current`.
base::Result<store::ZoneData> apply_transfer(const Transfer& transfer, const store::ZoneData& current);

}  // namespace cutover::replication
