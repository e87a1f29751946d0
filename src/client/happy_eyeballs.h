// RFC 8305 Happy Eyeballs over a whole answer: the addresses are interleaved by family (IPv6
// first, §4), attempts start one Connection Attempt Delay apart (250 ms, §5) or at once when
// the previous one failed, every attempt has its own connect timeout, and the first to
// connect wins (the others are closed). Non-blocking connect(2) and poll(2), on real time.
// Stateless free functions; thread-safe. Blocking.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "net/address.h"
#include "net/socket.h"

namespace cutover::client {

struct HappyEyeballsOptions {
  std::chrono::milliseconds attempt_delay{250};    // RFC 8305 §5 default (range 100 ms .. 2 s, §8)
  std::chrono::milliseconds connect_timeout{5000};  // per attempt, not per name
};

enum class AttemptOutcome {
  kConnected,
  kRefused,    // ECONNREFUSED: nothing listens there
  kTimedOut,   // no answer to the SYN within the connect timeout
  kFailed,     // another error (unreachable network, reset ...)
  kAbandoned,  // still pending when another attempt connected
};

std::string attempt_outcome_text(AttemptOutcome outcome);

struct ConnectAttempt {
  net::SocketAddress address;
  std::chrono::nanoseconds started{0};  // after the first attempt started
  std::chrono::nanoseconds ended{0};    // likewise: when it connected, failed or was dropped
  AttemptOutcome outcome = AttemptOutcome::kAbandoned;
  std::string error;                    // strerror text for kFailed
};

struct ConnectResult {
  net::UniqueFd socket;                 // connected, non-blocking; invalid when all failed
  net::SocketAddress peer;              // the address that connected
  std::vector<ConnectAttempt> attempts;  // in the order they started
  bool connected() const { return socket.valid(); }
};

// RFC 8305 §4: the first address of the preferred family (IPv6), then alternating families;
// each family keeps the order it was given in.
std::vector<net::SocketAddress> interleave_families(const std::vector<net::SocketAddress>& ipv6,
                                                    const std::vector<net::SocketAddress>& ipv4);

// Connects to the first of `ordered` that accepts, racing as described above. `on_attempt`
// (may be empty) is told of each attempt as it starts and as it ends, for the trace.
using AttemptObserver = std::function<void(const ConnectAttempt& attempt, bool started)>;
ConnectResult connect_happy_eyeballs(const std::vector<net::SocketAddress>& ordered,
                                     const HappyEyeballsOptions& options, const AttemptObserver& on_attempt = {});

}  // namespace cutover::client
