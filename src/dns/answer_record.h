// Answer records as both answer fast paths pre-encode them: the owner is a compression
// pointer to the question name right after the header, class IN, then TTL and rdata, so
// the bytes can be copied after any question for that name. Stateless.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "base/bytes.h"
#include "dns/message.h"
#include "dns/types.h"

namespace cutover::dns {

// Bytes before the rdata: owner pointer (2), type (2), class (2), TTL (4), rdata length (2).
constexpr std::size_t kAnswerRecordHeader = 12;
// Where the TTL sits inside such a record, for patching it per query.
constexpr std::size_t kAnswerRecordTtlOffset = 6;

// `Writer`: base::ByteWriter or base::SpanWriter.
template <class Writer>
void write_answer_record(Writer& out, RRType type, std::uint32_t ttl, std::span<const std::uint8_t> rdata) {
  out.write_u16(static_cast<std::uint16_t>(0xC000 | kHeaderSize));
  out.write_u16(static_cast<std::uint16_t>(type));
  out.write_u16(static_cast<std::uint16_t>(RRClass::IN));
  out.write_u32(ttl);
  out.write_u16(static_cast<std::uint16_t>(rdata.size()));
  out.write_bytes(rdata);
}

}  // namespace cutover::dns
