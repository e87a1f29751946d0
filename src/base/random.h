// Unpredictable values for what goes on the wire from us: the message ID of an outgoing query
// (a transfer, a forwarded UPDATE, a client tool's question), which RFC 5452 §4.3 and §9.2 ask
// to be unguessable by an off-path attacker. From the kernel's CSPRNG (getrandom(2)), one
// system call a value: no per-thread generator state (a std::mt19937 per thread was 5 KB of
// static TLS that every thread of the process paid for, docs/performance.md "Zone memory").
// Not for the answer path's weighted draws (auth::DrawGenerator).
#pragma once

#include <cstdint>

namespace cutover::base {

std::uint16_t random_message_id();

}  // namespace cutover::base
