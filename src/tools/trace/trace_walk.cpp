// The walk: ask the current zone's servers, follow referrals downwards, follow CNAMEs from
// the root again, and stop (with a finding) on upward or sideways referrals, loops and silence.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "dns/rdata.h"
#include "dns/types.h"
#include "tools/probe/dns_probe.h"
#include "tools/trace/trace.h"
#include "tools/trace/trace_cut.h"

namespace cutover::tools {
namespace {

using dns::RRType;

class Walker {
 public:
  explicit Walker(const TraceSpec& spec) : spec_(spec) {
    direct_ = spec.query;
    direct_.recursion_desired = false;
  }

  TraceResult run() {
    dns::Name name = spec_.name;
    std::set<std::string> seen;
    for (int hop = 0; hop <= spec_.max_cname_hops; ++hop) {
      if (!seen.insert(name.lowercased().to_text()).second) {
        add(Severity::kError, "cname-loop", name.to_text(), "the CNAME chain comes back to this name");
        return std::move(result_);
      }
      result_.chain.push_back(name.to_text());
      auto next = walk(name, /*record=*/true);
      if (!next) return std::move(result_);
      name = *next;
    }
    add(Severity::kError, "cname-chain-too-long", spec_.name.to_text(),
        fmt::format("more than {} CNAME hops", spec_.max_cname_hops));
    return std::move(result_);
  }

 private:
  void add(Severity severity, std::string rule, std::string subject, std::string message) {
    result_.findings.push_back(make_finding(severity, std::move(rule), std::move(subject), std::move(message)));
  }

  // Asks the servers in order until one replies; unreachable ones are reported once each.
  std::optional<ServerReply> ask_any(const std::vector<net::SocketAddress>& servers, const dns::Name& name,
                                     dns::RRType type, const std::string& zone, bool report) {
    for (const auto& server : servers) {
      ServerReply reply = probe(server, name, type, direct_);
      if (reply.answered) return reply;
      if (report) add(Severity::kWarning, "server-unreachable", reply.server,
                      fmt::format("no reply for zone {} ({}); trying the next server", zone, reply.error));
    }
    return std::nullopt;
  }

  // Walks `name` from the roots. Returns the CNAME target to walk next, or nullopt when done.
  // With `record` false (name server addresses) nothing is reported and the reply lands in last_.
  std::optional<dns::Name> walk(const dns::Name& name, bool record) {
    const RRType type = record ? spec_.type : RRType::A;
    std::vector<net::SocketAddress> servers = spec_.roots;
    dns::Name zone;  // the root
    for (int referral = 0; referral <= spec_.max_referrals; ++referral) {
      auto reply = ask_any(servers, name, type, zone.to_text(), record);
      if (!reply) {
        if (record) add(Severity::kError, "zone-unreachable", zone.to_text(), "no server of this zone replied");
        return std::nullopt;
      }
      const dns::Message& message = reply->response;
      auto referral_cut = referral_zone(message, name);
      if (!message.answers.empty() || reply->authoritative || !referral_cut) {
        if (!message.answers.empty() || reply->authoritative) return finish(*reply, name, record);
        if (record) {
          add(Severity::kError, "bad-referral", reply->server,
              fmt::format("{} replied {} without an answer or a referral below {}", reply->server,
                          dns::rcode_to_text(reply->rcode), zone.to_text()));
        }
        return std::nullopt;
      }
      if (!referral_cut->is_subdomain_of(zone) || *referral_cut == zone) {
        if (record) add(Severity::kError, "referral-loop", reply->server,
                        fmt::format("referral from {} to {} does not lead downwards", zone.to_text(),
                                    referral_cut->to_text()));
        return std::nullopt;
      }
      CutContext context{spec_, direct_, [this](const dns::Name& host) { return resolve_host(host); }};
      ZoneCut cut = examine_cut(context, *reply, zone, *referral_cut, name);
      servers = cut_servers(cut, spec_.port);
      if (record) {
        check_cut(cut, result_.findings);
        result_.cuts.push_back(std::move(cut));
      }
      zone = *referral_cut;
    }
    if (record) add(Severity::kError, "too-many-referrals", name.to_text(),
                    fmt::format("more than {} referrals", spec_.max_referrals));
    return std::nullopt;
  }

  std::optional<dns::Name> finish(const ServerReply& reply, const dns::Name& name, bool record) {
    if (!record) {
      last_ = reply;
      return std::nullopt;
    }
    result_.final_answer = answer_signature(reply);
    result_.answers = reply.answers;
    result_.completed = reply.authoritative;
    if (!reply.authoritative) {
      add(Severity::kError, "lame-server", reply.server, "gave the final answer without the AA flag");
    }
    if (!result_.cuts.empty() && !spec_.old_servers.empty()) check_old_servers(result_.cuts.back());
    // Follow a CNAME only when the answer does not already hold the asked type at its end.
    if (spec_.type == RRType::CNAME) return std::nullopt;
    dns::Name current = name;
    for (bool moved = true; moved;) {
      moved = false;
      for (const auto& answer : reply.response.answers) {
        if (answer.owner == current && answer.type == RRType::CNAME) {
          current = *dns::rdata_target_name(RRType::CNAME, answer.rdata);
          moved = true;
        }
      }
    }
    if (current == name) return std::nullopt;
    for (const auto& answer : reply.response.answers) {
      if (answer.owner == current && answer.type == spec_.type) return std::nullopt;
    }
    return current;
  }

  void check_old_servers(ZoneCut& cut) {
    auto zone = dns::Name::from_text(cut.zone);
    if (!zone) return;
    CutContext context{spec_, direct_, [this](const dns::Name& host) { return resolve_host(host); }};
    for (const auto& server : spec_.old_servers) {
      cut.children.push_back(examine_server(context, server, "", "old", *zone, spec_.name));
    }
    check_cut(cut, result_.findings, /*old_only=*/true);
  }

  // Addresses of a name server without glue: a silent walk of its A record.
  std::vector<net::SocketAddress> resolve_host(const dns::Name& host) {
    if (++host_lookups_ > 16) return {};  // bounds mutual out-of-bailiwick delegations
    last_.reset();
    walk(host, /*record=*/false);
    std::vector<net::SocketAddress> addresses;
    if (!last_) return addresses;
    for (const auto& record : last_->response.answers) {
      if (record.type != RRType::A || record.rdata.size() != 4) continue;
      auto text = fmt::format("{}.{}.{}.{}", record.rdata[0], record.rdata[1], record.rdata[2], record.rdata[3]);
      if (auto server = client::parse_server(text, spec_.port)) addresses.push_back(*server);
    }
    return addresses;
  }

  const TraceSpec& spec_;
  client::QueryOptions direct_;
  TraceResult result_;
  std::optional<ServerReply> last_;
  int host_lookups_ = 0;
};

}  // namespace

TraceResult trace(const TraceSpec& spec) { return Walker(spec).run(); }

}  // namespace cutover::tools
