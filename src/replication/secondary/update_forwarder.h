// UpdateForwarder: a secondary's relay of DNS UPDATE to the zone's primary (RFC 2136 §6), for
// zones configured with `forward-updates: true` (docs/replication.md, "Updates sent to a
// secondary"). Read-only after construction; forward() may be called from any thread at once.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/log.h"
#include "base/result.h"
#include "base/transport.h"
#include "dns/message.h"
#include "dns/name.h"
#include "net/address.h"

namespace cutover::replication {

// A zone whose updates go to its primary: the address it transfers from (RFC 2136 §6.1).
struct ForwardedZone {
  dns::Name origin;
  net::SocketAddress primary;
};

// The longest a forwarded UPDATE waits for the primary before the client gets SERVFAIL
// (RFC 2136 §6.4 makes the forwarder wait; the bound keeps a listener thread from hanging).
inline constexpr std::chrono::milliseconds kForwardTimeout{2000};

// The zone section of an UPDATE request (ZOCOUNT 1, ZTYPE SOA), read without the rest of the
// message, which the forwarder passes on as it is; kMalformed when it is not there.
base::Result<dns::Question> update_zone(std::span<const std::uint8_t> request);

// `message` with its header ID replaced, every other byte unchanged. A TSIG stays valid: its
// MAC covers the message with the TSIG's Original ID in the ID field (RFC 8945 §4.3.1,
// §5.4.1), so the forwarder may use an ID of its own toward the primary and put the client's
// back on the reply (RFC 2136 §6.6). Empty when `message` is shorter than a header.
std::vector<std::uint8_t> with_message_id(std::span<const std::uint8_t> message, std::uint16_t id);

// The SERVFAIL a client gets when the primary could not be asked or did not answer in time
// (RFC 2136 §6.4 leaves the failure to the forwarder): the request's ID, opcode and zone
// section. Unsigned: the forwarder holds no key of the client's (RFC 8945 §5.3.2 sends errors
// it cannot sign unsigned as well).
std::vector<std::uint8_t> forward_failure(const dns::Header& request, const dns::Question& zone);

class UpdateForwarder {
 public:
  // `logger` must outlive the forwarder. `timeout` bounds each forwarded exchange in all.
  // `max_in_flight` (at least 1) caps the updates relayed at once: each holds the thread that
  // received it until the primary answers, so the cap keeps a slow or silent primary from
  // taking every listener thread; an update beyond it is SERVFAIL at once.
  UpdateForwarder(std::vector<ForwardedZone> zones, base::Logger& logger,
                  std::chrono::milliseconds timeout = kForwardTimeout, std::size_t max_in_flight = 1);

  // The forwarded zone an UPDATE request names, or null when its zone is not one (or the
  // zone section does not parse): the server's own UPDATE handler answers those.
  const ForwardedZone* zone_of(std::span<const std::uint8_t> request) const;

  // Relays `request` to `zone`'s primary and returns the reply for the client: the primary's
  // reply with the client's ID back in it and nothing else changed (its TSIG included, which
  // the client verifies), or forward_failure() when the primary did not answer within the
  // timeout. Over TCP when the client used TCP (RFC 2136 §6.2) or the request is larger than
  // a classic UDP message; over UDP otherwise, then TCP when the reply is truncated. Blocks
  // the calling thread for at most the timeout; SERVFAIL without asking when max_in_flight
  // updates are already waiting for a primary.
  std::vector<std::uint8_t> forward(std::span<const std::uint8_t> request, base::Transport transport,
                                    const ForwardedZone& zone, const std::string& client) const;

 private:
  std::vector<ForwardedZone> zones_;
  base::Logger& logger_;
  std::chrono::milliseconds timeout_;
  std::size_t max_in_flight_;
  mutable std::atomic<std::size_t> in_flight_{0};
};

}  // namespace cutover::replication
