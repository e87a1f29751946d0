// Sweep: ask a name's authoritative servers directly and a list of resolvers, compare what
// each returns, and (in watch mode) repeat until they all agree. The "resolver sweep" of
// docs/tools.md ("cutover sweep"). Blocking; not thread-safe per object.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "client/query.h"
#include "dns/name.h"
#include "net/address.h"
#include "tools/probe/dns_probe.h"
#include "tools/report/finding.h"

namespace cutover::tools {

struct SweepSpec {
  dns::Name name;
  dns::RRType type = dns::RRType::A;
  std::vector<net::SocketAddress> authoritative;  // empty: found through the resolvers' NS answers
  std::vector<net::SocketAddress> resolvers;
  std::uint16_t auth_port = 53;                   // for servers found by name
  client::QueryOptions query;                     // timeout and tries for every question
};

struct SourceResult {
  bool authoritative = false;  // an authoritative server asked directly, or a resolver
  ServerReply probe;
  std::optional<std::uint32_t> serial;  // authoritative only: the zone's SOA serial
  std::string status;                   // "ok", "differs", "silent", "not authoritative"
};

struct SweepRound {
  double elapsed = 0;             // seconds since the sweep started
  std::string zone;               // the zone apex, when found
  std::string reference;          // answer_signature the others are compared with
  std::optional<std::uint32_t> reference_serial;
  std::vector<SourceResult> sources;
  std::vector<Finding> findings;
  bool all_agree = false;         // every answering source matches the reference
};

struct ResolverSwitch {
  std::string resolver;
  double at = 0;  // elapsed seconds of the first round it matched after differing
};

struct SweepWatch {
  std::vector<SweepRound> rounds;
  std::optional<double> agreed_after;  // elapsed seconds of the first round where all agree
  std::vector<ResolverSwitch> switches;
};

// One round: discover the authoritative servers if needed, ask everyone, compare.
SweepRound sweep_once(const SweepSpec& spec);

struct WatchOptions {
  std::chrono::milliseconds interval{5000};
  std::chrono::milliseconds max_duration{std::chrono::minutes(10)};
  bool until_agree = false;  // stop at the first round where all sources agree
};
SweepWatch sweep_watch(const SweepSpec& spec, const WatchOptions& options);

std::string sweep_round_to_text(const SweepRound& round);
std::string sweep_watch_to_text(const SweepWatch& watch);
nlohmann::json sweep_round_to_json(const SweepRound& round);
nlohmann::json sweep_watch_to_json(const SweepWatch& watch);

}  // namespace cutover::tools
