// A stub DNS client for tools, probes and the lab: sends one question to one server over
// UDP (retrying over TCP when the reply is truncated) or TCP, with explicit timeout and tries.
// Stateless free functions; thread-safe. Blocking: never call on a serving thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "dns/message.h"
#include "dns/name.h"
#include "dns/types.h"
#include "net/address.h"

namespace cutover::client {

struct QueryOptions {
  std::chrono::milliseconds timeout{2000};  // per try
  int tries = 1;                            // UDP attempts before giving up
  bool tcp = false;                         // TCP only
  bool tcp_on_truncation = true;            // retry over TCP when the UDP reply has TC
  bool edns = true;
  std::uint16_t udp_size = 1232;
  bool recursion_desired = false;
  // AD set in the query: a validating resolver then says in its reply's AD bit whether the
  // answer was validated as secure (RFC 6840 §5.7), without the DO bit's extra records.
  bool authentic_data = false;
  // Sends from this address (its port 0: any) instead of one the kernel picks: the lab's
  // client populations on their own loopback addresses.
  std::optional<net::SocketAddress> source;
};

struct QueryResult {
  dns::Message response;
  std::vector<std::uint8_t> wire;
  std::chrono::microseconds round_trip{0};  // of the try that produced `response`
  bool over_tcp = false;
};

// "ADDR", "ADDR:PORT", "[V6]:PORT" or "V6"; the port defaults to `default_port`.
base::Result<net::SocketAddress> parse_server(std::string_view text, std::uint16_t default_port = 53);

// Asks `server` one question. Replies whose ID or question do not match are ignored
// (they cannot be ours); errors are kTimeout, kIo or kMalformed, with the server in the message.
base::Result<QueryResult> query(const net::SocketAddress& server, const dns::Name& name, dns::RRType type,
                                const QueryOptions& options = {});

// Sends a prepared message (its ID and question are what the reply is matched against).
base::Result<QueryResult> exchange(const net::SocketAddress& server, const dns::Message& request,
                                   const QueryOptions& options = {});
// The same with `request` already encoded as `wire` (e.g. TSIG-signed after encoding).
base::Result<QueryResult> exchange(const net::SocketAddress& server, const dns::Message& request,
                                   const std::vector<std::uint8_t>& wire, const QueryOptions& options);

// Told each matching reply of a stream; returns true when it has read enough, or an error
// that ends the exchange with that error.
using ReplyHandler = std::function<base::Result<bool>(QueryResult reply)>;

// Sends `request` over TCP and reads replies until `on_reply` says done (zone transfers:
// RFC 5936 §2.2, one request, many messages). `options.timeout` bounds the wait for each
// reply, not the whole stream. Replies may omit the question (RFC 5936 §2.2.1).
base::Status exchange_stream(const net::SocketAddress& server, const dns::Message& request,
                             const QueryOptions& options, const ReplyHandler& on_reply);
// The same with `request` already encoded as `wire` (e.g. TSIG-signed after encoding).
base::Status exchange_stream(const net::SocketAddress& server, const dns::Message& request,
                             const std::vector<std::uint8_t>& wire, const QueryOptions& options,
                             const ReplyHandler& on_reply);

}  // namespace cutover::client
