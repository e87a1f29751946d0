// One sweep round: authoritative discovery through the resolvers, the questions, and the
// comparison. The reference answer is the one served with the highest SOA serial (the newest
// zone), by majority among those servers; resolvers are compared with it on rcode and data,
// never on TTL, since a remaining TTL differs by design.
#include "tools/sweep/sweep.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "dns/rdata.h"
#include "dns/types.h"

namespace cutover::tools {
namespace {

using dns::RRType;

// The zone apex: the owner of the SOA in the answer or authority section.
std::optional<dns::Name> apex_of(const dns::Message& message) {
  for (const auto* section : {&message.answers, &message.authorities}) {
    for (const auto& record : *section) {
      if (record.type == RRType::SOA) return record.owner;
    }
  }
  return std::nullopt;
}

std::vector<dns::Name> targets_of(const ServerReply& result, RRType type) {
  std::vector<dns::Name> names;
  for (const auto& record : result.response.answers) {
    if (record.type != type) continue;
    if (auto target = dns::rdata_target_name(type, record.rdata)) names.push_back(*target);
  }
  return names;
}

// Every resolver's view of the zone's NS set, resolved to addresses: a resolver still holding
// the old delegation contributes the old servers, which is how a live old zone is found.
std::vector<net::SocketAddress> discover_authoritative(const SweepSpec& spec, std::string& zone) {
  client::QueryOptions recursive = spec.query;
  recursive.recursion_desired = true;
  std::map<std::string, net::SocketAddress> found;
  for (const auto& resolver : spec.resolvers) {
    ServerReply soa = probe(resolver, spec.name, RRType::SOA, recursive);
    auto apex = soa.answered ? apex_of(soa.response) : std::nullopt;
    if (!apex) continue;
    if (zone.empty()) zone = apex->to_text();
    ServerReply ns = probe(resolver, *apex, RRType::NS, recursive);
    for (const auto& host : targets_of(ns, RRType::NS)) {
      ServerReply address = probe(resolver, host, RRType::A, recursive);
      for (const auto& record : address.response.answers) {
        if (record.type != RRType::A || record.rdata.size() != 4) continue;
        std::string text = fmt::format("{}.{}.{}.{}:{}", record.rdata[0], record.rdata[1], record.rdata[2],
                                       record.rdata[3], spec.auth_port);
        if (auto server = client::parse_server(text)) found.emplace(text, *server);
      }
    }
  }
  std::vector<net::SocketAddress> servers;
  for (const auto& [text, server] : found) servers.push_back(server);
  return servers;
}

void compare(SweepRound& round, const SweepSpec& spec) {
  // Reference: among authoritative answers with the highest serial, the most common signature.
  std::optional<std::uint32_t> newest;
  for (const auto& source : round.sources) {
    if (source.authoritative && source.probe.answered && source.serial) newest = std::max(newest.value_or(0), *source.serial);
  }
  std::map<std::string, int> votes;
  for (const auto& source : round.sources) {
    if (!source.authoritative || !source.probe.answered || !source.probe.authoritative) continue;
    if (newest && source.serial != newest) continue;
    ++votes[answer_signature(source.probe)];
  }
  if (votes.empty()) {
    for (const auto& source : round.sources) {
      if (!source.authoritative && source.probe.answered) ++votes[answer_signature(source.probe)];
    }
    round.findings.push_back(make_finding(Severity::kError, "no-authoritative-answer", spec.name.to_text(),
                                          "no authoritative server answered authoritatively; comparing resolvers "
                                          "with each other only"));
  }
  for (const auto& [signature, count] : votes) {
    if (round.reference.empty() || count > votes[round.reference]) round.reference = signature;
  }
  round.reference_serial = newest;

  round.all_agree = !votes.empty();
  for (auto& source : round.sources) {
    const auto& p = source.probe;
    const std::string role = source.authoritative ? "authoritative" : "resolver";
    if (!p.answered) {
      source.status = "silent";
      round.all_agree = false;
      round.findings.push_back(make_finding(
          Severity::kWarning, source.authoritative ? "authoritative-silent" : "resolver-silent", p.server,
          fmt::format("{} gave no reply ({}); not counted as a mismatch", role, p.error)));
      continue;
    }
    if (source.authoritative && !p.authoritative) {
      source.status = "not authoritative";
      round.all_agree = false;
      round.findings.push_back(make_finding(Severity::kError, "lame-server", p.server,
                                            fmt::format("answers {} without the AA flag: lame for this zone",
                                                        dns::rcode_to_text(p.rcode))));
      continue;
    }
    std::string signature = answer_signature(p);
    bool serial_differs = source.authoritative && newest && source.serial != newest;
    if (signature == round.reference && !serial_differs) {
      source.status = "ok";
      continue;
    }
    source.status = "differs";
    round.all_agree = false;
    if (source.authoritative) {
      round.findings.push_back(make_finding(
          Severity::kError, "authoritative-disagrees", p.server,
          fmt::format("serial {} answers '{}' while the newest zone (serial {}) answers '{}': an old zone is still "
                      "live, and resolvers that follow its delegation get its data",
                      source.serial ? std::to_string(*source.serial) : "?", signature,
                      newest ? std::to_string(*newest) : "?", round.reference)));
    } else {
      round.findings.push_back(make_finding(
          Severity::kWarning, "resolver-differs", p.server,
          fmt::format("answers '{}' (remaining TTL {}) instead of '{}'", signature,
                      p.min_ttl ? fmt::format("{} s", *p.min_ttl) : "-", round.reference)));
    }
  }
}

}  // namespace

SweepRound sweep_once(const SweepSpec& spec) {
  SweepRound round;
  std::vector<net::SocketAddress> authoritative = spec.authoritative;
  if (authoritative.empty()) authoritative = discover_authoritative(spec, round.zone);
  client::QueryOptions direct = spec.query;
  direct.recursion_desired = false;
  for (const auto& server : authoritative) {
    SourceResult source;
    source.authoritative = true;
    source.probe = probe(server, spec.name, spec.type, direct);
    if (source.probe.answered) {
      ServerReply soa = probe(server, spec.name, RRType::SOA, direct);
      source.serial = soa_serial(soa.response);
      if (auto apex = apex_of(soa.response); apex && round.zone.empty()) round.zone = apex->to_text();
    }
    round.sources.push_back(std::move(source));
  }
  client::QueryOptions recursive = spec.query;
  recursive.recursion_desired = true;
  for (const auto& resolver : spec.resolvers) {
    SourceResult source;
    source.probe = probe(resolver, spec.name, spec.type, recursive);
    round.sources.push_back(std::move(source));
  }
  if (authoritative.empty()) {
    round.findings.push_back(make_finding(Severity::kError, "no-authoritative-servers", spec.name.to_text(),
                                          "none given with --auth and none found through the resolvers"));
  }
  compare(round, spec);
  return round;
}

}  // namespace cutover::tools
