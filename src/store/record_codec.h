// Record lists as bytes for the journal: each record is its uncompressed owner name, type,
// class, TTL, rdata length and canonical rdata (the RFC 1035 RR layout without compression).
// Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/result.h"
#include "dns/message.h"

namespace cutover::store {

std::vector<std::uint8_t> encode_records(const std::vector<dns::ResourceRecord>& records);
// Fails (kMalformed) on any truncation or trailing byte.
base::Result<std::vector<dns::ResourceRecord>> decode_records(std::span<const std::uint8_t> bytes);

}  // namespace cutover::store
