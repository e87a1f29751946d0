// The contract between the listeners and whoever answers: one callback per received
// message. The listeners know nothing about DNS beyond TCP's two-byte framing.
#pragma once

#include <sys/socket.h>

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace cutover::net {

enum class Transport { kUdp, kTcp };

// Called from several listener threads at once, so it must be thread-safe. Writes the reply
// into `response` (given empty) and returns true to send it; false sends nothing.
using QueryHandler = std::function<bool(std::span<const std::uint8_t> query, Transport transport,
                                        const sockaddr_storage& client, std::vector<std::uint8_t>& response)>;

// Optional, TCP only: sees each query before the QueryHandler, for answers that take more
// than one message (zone transfers, RFC 5936 §2.2). Returns false to leave the query to the
// QueryHandler; true sends `responses` (given empty; possibly still empty) in order.
// Called concurrently like the QueryHandler.
using StreamHandler = std::function<bool(std::span<const std::uint8_t> query, const sockaddr_storage& client,
                                         std::vector<std::vector<std::uint8_t>>& responses)>;

}  // namespace cutover::net
