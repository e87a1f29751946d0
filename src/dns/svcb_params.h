// SVCB/HTTPS SvcParams (RFC 9460 §2.1, §7): wire validation, presentation printing in the
// form BIND and kdig use, and parsing from zone tokens. Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "base/result.h"
#include "dns/rdata.h"

namespace cutover::dns {

// Keys strictly ascending, lengths inside the data, known keys' values well-formed.
bool svc_params_valid(std::span<const std::uint8_t> params);
// Space-separated key=value pairs; empty when there are no params.
std::string svc_params_to_text(std::span<const std::uint8_t> params);
// Consumes every remaining token. A value is either inside the token (`port=443`,
// `alpn="h2,h3"`) or, after `key=`, the next quoted token. Keys are sorted on the wire.
base::Status svc_params_from_text(std::span<const TextToken> tokens, std::size_t& index, Rdata& out);

}  // namespace cutover::dns
