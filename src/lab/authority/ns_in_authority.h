// The non-minimal positive answer of the lab authority: a zone's own NS RRset added to the
// authority section, as BIND and NSD send it by default, for lab zones that ask for it (E8:
// without it a resolver that never asks NS itself cannot learn the child's NS TTL).
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "auth/engine.h"
#include "dns/message.h"

namespace cutover::lab {

// Rewrites `response` (an encoded answer from `zones`) with the apex NS RRset of the answering
// zone in its authority section. Only a positive authoritative answer with an empty authority
// section is changed, and only when the result fits in `max_size`; returns whether it changed.
bool add_ns_in_authority(const auth::ZoneSet& zones, std::size_t max_size, std::vector<std::uint8_t>& response);

// The largest reply a query may get: 65535 over TCP; over UDP its EDNS size within
// [512, kMaxUdpPayload], or 512 without EDNS.
std::size_t reply_size_limit(bool udp, const std::optional<dns::Edns>& edns);

}  // namespace cutover::lab
