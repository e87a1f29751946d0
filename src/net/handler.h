// The contract between the listeners and whoever answers: one callback per received
// message. The listeners know nothing about DNS beyond TCP's two-byte framing.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "base/transport.h"

namespace cutover::net {

using base::Transport;

// What a handler that sees a query before the answer engine decided: leave it to the next
// handler and then the engine, drop it, or send what the handler wrote.
enum class Intercept { kContinue, kDrop, kRespond };

// Called from several listener threads at once, so it must be thread-safe. Writes the reply
// into `response` (given empty) and returns true to send it; false sends nothing.
using QueryHandler = std::function<bool(std::span<const std::uint8_t> query, Transport transport,
                                        const sockaddr_storage& client, std::vector<std::uint8_t>& response)>;

// One datagram of a received UDP batch: the handler reads `query` and `client`, writes the
// reply into `response` (given empty) and sets `reply` to send it.
struct Datagram {
  std::span<const std::uint8_t> query;
  const sockaddr_storage* client = nullptr;
  std::vector<std::uint8_t>* response = nullptr;
  bool reply = false;
};

// Optional, UDP only: answers a whole received batch in one call, so work that can be shared
// or overlapped across the batch (taking the current zone snapshot, prefetching the memory
// each answer will read) is done once per batch instead of once per datagram. Empty: each
// datagram goes to the QueryHandler. Called concurrently like the QueryHandler. Called with
// an empty batch when the thread's receive timed out (no datagram for a second): the thread
// is idle, and the handler may drop what it keeps per thread (base::Published::forget).
using BatchHandler = std::function<void(std::span<Datagram> batch)>;

// Optional, TCP only: sees each query before the QueryHandler, for answers that take more
// than one message (zone transfers, RFC 5936 §2.2). Returns false to leave the query to the
// QueryHandler; true sends `responses` (given empty; possibly still empty) in order.
// Called concurrently like the QueryHandler.
using StreamHandler = std::function<bool(std::span<const std::uint8_t> query, const sockaddr_storage& client,
                                         std::vector<std::vector<std::uint8_t>>& responses)>;

}  // namespace cutover::net
