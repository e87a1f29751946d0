// The TSIG resource record (RFC 8945 §4.2): its rdata codec, appending it to a message, and
// finding it (it must be the last record of the additional section). Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "base/result.h"
#include "dns/name.h"
#include "dns/types.h"

namespace cutover::tsig {

constexpr auto kTsigType = static_cast<dns::RRType>(250);
constexpr std::uint16_t kDefaultFudge = 300;

struct TsigRecord {
  dns::Name key_name;  // the RR's owner
  dns::Name algorithm;
  std::uint64_t time_signed = 0;  // 48-bit seconds since the epoch
  std::uint16_t fudge = kDefaultFudge;
  std::vector<std::uint8_t> mac;
  std::uint16_t original_id = 0;
  std::uint16_t error = 0;  // an extended rcode: 0, BADSIG, BADKEY, BADTIME, BADTRUNC
  std::vector<std::uint8_t> other;
};

// Appends the whole TSIG RR (owner, type, class ANY, TTL 0, rdata) and adds one to ARCOUNT.
// `message` must hold at least a DNS header.
void append_tsig(std::vector<std::uint8_t>& message, const TsigRecord& record);

struct LocatedTsig {
  std::size_t offset = 0;  // where the TSIG RR starts: the message without it is [0, offset)
  TsigRecord record;
};

// Walks the message and returns its TSIG, or nullopt when it has none. Fails (kMalformed)
// when the message does not parse, when a TSIG is not the last additional record, or when
// its class, TTL or rdata are wrong (RFC 8945 §5.1: such a request gets FORMERR).
base::Result<std::optional<LocatedTsig>> locate_tsig(std::span<const std::uint8_t> message);

// The message as it was before the TSIG was added (RFC 8945 §4.3.1): bytes up to the TSIG,
// ARCOUNT one less, and the ID put back to the original ID.
std::vector<std::uint8_t> strip_tsig(std::span<const std::uint8_t> message, const LocatedTsig& tsig);

}  // namespace cutover::tsig
