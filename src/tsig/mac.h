// The TSIG MAC (RFC 8945 §4.3): HMAC over an optional prior MAC, the message without its
// TSIG, and the TSIG variables (or only the timers, for later messages of a multi-message
// response, §5.3.1). Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tsig/key.h"
#include "tsig/record.h"

namespace cutover::tsig {

enum class Covered {
  kVariables,  // key name, class, TTL, algorithm, time, fudge, error, other (§4.3.3)
  kTimers,     // time signed and fudge only (§4.3.1, later messages of a response)
};

// `prior_mac` empty means none (a request); otherwise it goes first with its length (§4.3.2).
// `message` is the message without its TSIG, with the original ID and ARCOUNT (strip_tsig).
std::vector<std::uint8_t> compute_mac(const Key& key, std::span<const std::uint8_t> prior_mac,
                                      std::span<const std::uint8_t> message, const TsigRecord& tsig, Covered covered);

// Constant-time equality (CRYPTO_memcmp), so a forger learns nothing from timing.
bool macs_equal(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b);

}  // namespace cutover::tsig
