// The tcp probe: passes when a TCP connection to the endpoint completes within the
// timeout. Stateless; one instance may serve one checker thread.
#pragma once

#include "health/probe.h"
#include "net/socket.h"

namespace cutover::health {

void register_tcp_probe(ProbeRegistry& registry);

// Connects to `target.socket`, failing with a precise reason (refused, unreachable, no
// reply to SYN within `timeout`). kError when no socket could even be made.
ProbeResult probe_tcp_connect(const Target& target, std::chrono::milliseconds timeout);

// One connect attempt, for probes that go on to talk over the connection.
struct TcpConnectAttempt {
  net::UniqueFd socket;  // connected and non-blocking; invalid when the attempt failed
  ProbeResult failure;   // why, with the same reasons as probe_tcp_connect (timed by `timer`)
};
TcpConnectAttempt tcp_connect(const Target& target, std::chrono::milliseconds timeout, const ProbeTimer& timer);

}  // namespace cutover::health
