// One zone cut of a trace: read the referral, ask every child server (and old servers) for
// the zone's NS set, SOA serial and the traced question, and turn differences into findings.
// Internal to the trace folder. Blocking; stateless.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "tools/probe/dns_probe.h"
#include "tools/trace/trace.h"

namespace cutover::tools {

struct CutContext {
  const TraceSpec& spec;
  const client::QueryOptions& direct;
  // Addresses of an out-of-bailiwick name server (a separate walk).
  std::function<std::vector<net::SocketAddress>(const dns::Name&)> resolve_host;
};

// The child zone a reply delegates to: the owner of the authority NS set when `name` is at or
// below it; nullopt when the reply is not a referral.
std::optional<dns::Name> referral_zone(const dns::Message& message, const dns::Name& name);

ZoneCut examine_cut(const CutContext& context, const ServerReply& referral, const dns::Name& parent,
                    const dns::Name& child, const dns::Name& name);
ChildServerView examine_server(const CutContext& context, const net::SocketAddress& server, const std::string& host,
                               const std::string& origin, const dns::Name& zone, const dns::Name& name);

// Servers to ask next: those of the cut that answered authoritatively, else all of them.
std::vector<net::SocketAddress> cut_servers(const ZoneCut& cut, std::uint16_t port);

// Findings of one cut; with old_only, only the comparison of old servers with the others.
void check_cut(const ZoneCut& cut, std::vector<Finding>& findings, bool old_only = false);

}  // namespace cutover::tools
