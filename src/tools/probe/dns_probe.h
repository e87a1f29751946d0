// DnsProbe: one question to one server through client::query, reduced to what the tools
// compare (rcode, AA, answer RRs as text, lowest TTL, SOA serial, round trip) with failures
// kept as data: a silent server is a result, not an exception. Stateless; thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/query.h"
#include "dns/message.h"
#include "dns/name.h"
#include "net/address.h"

namespace cutover::tools {

struct ServerReply {
  std::string server;        // "127.0.0.1:5300"
  bool answered = false;     // a reply arrived (any rcode)
  bool timed_out = false;    // no reply within tries x timeout
  std::string error;         // why there is no reply, when !answered
  dns::Rcode rcode = dns::Rcode::kNoError;
  bool authoritative = false;
  bool truncated_retried = false;  // the UDP reply had TC and TCP was used
  std::chrono::microseconds round_trip{0};
  std::vector<std::string> answers;  // answer-section RRs "owner TYPE rdata", sorted, no TTL
  std::optional<std::uint32_t> min_ttl;  // lowest TTL in the answer section
  dns::Message response;
};

ServerReply probe(const net::SocketAddress& server, const dns::Name& name, dns::RRType type,
                  const client::QueryOptions& options);

// "NOERROR 192.0.2.1, 192.0.2.2" / "NXDOMAIN" / "no reply": the value two sources must share.
std::string answer_signature(const ServerReply& result);

// The SOA serial in the answer or authority section, if any.
std::optional<std::uint32_t> soa_serial(const dns::Message& message);

// A question as typed on a command line: the name (made absolute when it lacks the final
// dot) and the type mnemonic; the error says which of the two is wrong.
base::Result<dns::Question> parse_question(const std::string& name, const std::string& type);

// Parses "ADDR[:PORT],ADDR[:PORT]" into servers; fails on the first bad entry.
base::Result<std::vector<net::SocketAddress>> parse_server_list(const std::string& text, std::uint16_t default_port);

// The nameserver lines of a resolv.conf text (port 53).
std::vector<net::SocketAddress> resolv_conf_servers(const std::string& text);

}  // namespace cutover::tools
