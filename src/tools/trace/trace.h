// Trace: walk the delegation from the root (or a lab root) without a resolver, like
// `dig +trace`, and at every zone cut put the parent's NS set and TTL next to what each child
// server says, with findings (NS sets or TTLs differ, glue outliving NS, lame or unreachable
// servers, servers of one zone disagreeing, old servers still live). Blocking; stateless.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/query.h"
#include "dns/name.h"
#include "net/address.h"
#include "tools/report/finding.h"

namespace cutover::tools {

struct TraceSpec {
  dns::Name name;
  dns::RRType type = dns::RRType::A;
  std::vector<net::SocketAddress> roots;  // where the walk starts
  // Port for every server found through a referral (glue carries no port): 53, or the
  // --root port in a lab where all servers share one port on different loopback addresses.
  std::uint16_t port = 53;
  // Servers the zone used before a move: asked like the delegated ones, and reported when
  // they still answer (`old-zone-live`, docs/tools.md "cutover trace").
  std::vector<net::SocketAddress> old_servers;
  client::QueryOptions query;
  int max_referrals = 24;
  int max_cname_hops = 8;
};

struct GlueRecord {
  std::string side;  // "parent" (referral additional section) or "child" (asked of a child server)
  std::string host;
  std::string address;
  std::uint32_t ttl = 0;
};

struct ChildServerView {
  std::string host;    // NS name it was listed under ("" for --old-servers)
  std::string server;  // address:port
  std::string origin;  // "parent", "child" (listed only by a child NS set) or "old"
  bool answered = false;
  bool authoritative = false;
  std::string error;
  std::vector<std::string> ns_set;  // lowercased, sorted
  std::optional<std::uint32_t> ns_ttl;
  std::optional<std::uint32_t> serial;
  std::string answer;  // signature of the traced question at this server
};

struct ZoneCut {
  std::string zone;
  std::string parent_zone;
  std::string parent_server;
  std::vector<std::string> parent_ns;  // lowercased, sorted
  std::uint32_t parent_ns_ttl = 0;
  std::vector<GlueRecord> glue;
  std::vector<ChildServerView> children;
};

struct TraceResult {
  std::vector<ZoneCut> cuts;
  std::vector<std::string> chain;    // the names walked: NAME, then each CNAME target
  std::string final_answer;          // signature of the last answer
  std::vector<std::string> answers;  // its records
  bool completed = false;            // an authoritative final answer was reached
  std::vector<Finding> findings;
};

TraceResult trace(const TraceSpec& spec);

std::string trace_to_text(const TraceResult& result);
nlohmann::json trace_to_json(const TraceResult& result);

}  // namespace cutover::tools
