// The tcp probe: passes when a TCP connection to the endpoint completes within the
// timeout. Stateless; one instance may serve one checker thread.
#pragma once

#include "health/probe.h"

namespace cutover::health {

void register_tcp_probe(ProbeRegistry& registry);

// Connects to `target.socket`, failing with a precise reason (refused, unreachable, no
// reply to SYN within `timeout`). kError when no socket could even be made.
ProbeResult probe_tcp_connect(const Target& target, std::chrono::milliseconds timeout);

}  // namespace cutover::health
