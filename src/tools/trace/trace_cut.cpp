// Zone cut examination and its findings (docs/tools.md, "cutover trace": compare both copies of the
// delegation name for name and TTL for TTL; RFC 9199 §3.6.2 for glue and the larger TTL).
#include "tools/trace/trace_cut.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "dns/rdata.h"
#include "dns/types.h"

namespace cutover::tools {
namespace {

using dns::RRType;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out.empty() ? "(none)" : out;
}

std::vector<std::string> ns_targets(const std::vector<dns::ResourceRecord>& records, const dns::Name& owner,
                                    std::optional<std::uint32_t>& ttl) {
  std::vector<std::string> names;
  for (const auto& record : records) {
    if (record.type != RRType::NS || !(record.owner == owner)) continue;
    if (auto target = dns::rdata_target_name(RRType::NS, record.rdata)) names.push_back(target->lowercased().to_text());
    ttl = std::min(ttl.value_or(record.ttl), record.ttl);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::string ipv4_text(const dns::Rdata& rdata) {
  return fmt::format("{}.{}.{}.{}", rdata[0], rdata[1], rdata[2], rdata[3]);
}

}  // namespace

std::optional<dns::Name> referral_zone(const dns::Message& message, const dns::Name& name) {
  for (const auto& record : message.authorities) {
    if (record.type == RRType::NS && name.is_subdomain_of(record.owner)) return record.owner;
  }
  return std::nullopt;
}

ChildServerView examine_server(const CutContext& context, const net::SocketAddress& server, const std::string& host,
                               const std::string& origin, const dns::Name& zone, const dns::Name& name) {
  ChildServerView view;
  view.host = host;
  view.origin = origin;
  ServerReply ns = probe(server, zone, RRType::NS, context.direct);
  view.server = ns.server;
  if (!ns.answered) {
    view.error = ns.error;
    return view;
  }
  view.answered = true;
  view.authoritative = ns.authoritative && ns.rcode == dns::Rcode::kNoError;
  if (!view.authoritative) {
    view.error = fmt::format("{}{}", dns::rcode_to_text(ns.rcode), ns.authoritative ? "" : " without AA");
    return view;
  }
  view.ns_set = ns_targets(ns.response.answers, zone, view.ns_ttl);
  ServerReply soa = probe(server, zone, RRType::SOA, context.direct);
  view.serial = soa_serial(soa.response);
  ServerReply question = probe(server, name, context.spec.type, context.direct);
  view.answer = answer_signature(question);
  return view;
}

ZoneCut examine_cut(const CutContext& context, const ServerReply& referral, const dns::Name& parent,
                    const dns::Name& child, const dns::Name& name) {
  ZoneCut cut;
  cut.zone = child.to_text();
  cut.parent_zone = parent.to_text();
  cut.parent_server = referral.server;
  std::optional<std::uint32_t> parent_ttl;
  cut.parent_ns = ns_targets(referral.response.authorities, child, parent_ttl);
  cut.parent_ns_ttl = parent_ttl.value_or(0);

  std::map<std::string, std::vector<net::SocketAddress>> addresses;
  for (const auto& record : referral.response.additionals) {
    if (record.type != RRType::A || record.rdata.size() != 4) continue;
    std::string host = record.owner.lowercased().to_text();
    if (std::find(cut.parent_ns.begin(), cut.parent_ns.end(), host) == cut.parent_ns.end()) continue;
    cut.glue.push_back({"parent", host, ipv4_text(record.rdata), record.ttl});
    if (auto server = client::parse_server(ipv4_text(record.rdata), context.spec.port)) addresses[host].push_back(*server);
  }
  auto examine_host = [&](const std::string& host, const std::string& origin) {
    auto host_name = dns::Name::from_text(host);
    if (!host_name) return;
    auto& list = addresses[host];
    if (list.empty() && !host_name->is_subdomain_of(child)) list = context.resolve_host(*host_name);
    if (list.empty()) {
      ChildServerView missing;
      missing.host = host;
      missing.origin = origin;
      missing.error = host_name->is_subdomain_of(child) ? "in-bailiwick name server without glue" : "no address found";
      cut.children.push_back(missing);
      return;
    }
    for (const auto& server : list) cut.children.push_back(examine_server(context, server, host, origin, child, name));
  };
  for (const auto& host : cut.parent_ns) examine_host(host, "parent");

  // Name servers only the child lists are asked too: resolvers that learnt the child's set use them.
  std::set<std::string> listed(cut.parent_ns.begin(), cut.parent_ns.end());
  std::set<std::string> child_only;
  for (const auto& view : cut.children) {
    for (const auto& host : view.ns_set) {
      if (!listed.count(host)) child_only.insert(host);
    }
  }
  // In-bailiwick addresses as the child serves them: their TTL must not outlive the NS TTL.
  const ChildServerView* first = nullptr;
  for (const auto& view : cut.children) {
    if (view.authoritative) {
      first = &view;
      break;
    }
  }
  if (first) {
    auto first_server = client::parse_server(first->server);
    std::set<std::string> hosts(first->ns_set.begin(), first->ns_set.end());
    for (const auto& host : hosts) {
      auto host_name = dns::Name::from_text(host);
      if (!host_name || !host_name->is_subdomain_of(child) || !first_server) continue;
      ServerReply address = probe(*first_server, *host_name, RRType::A, context.direct);
      for (const auto& record : address.response.answers) {
        if (record.type != RRType::A || record.rdata.size() != 4) continue;
        cut.glue.push_back({"child", host, ipv4_text(record.rdata), record.ttl});
        if (child_only.count(host)) {
          if (auto server = client::parse_server(ipv4_text(record.rdata), context.spec.port)) {
            addresses[host].push_back(*server);
          }
        }
      }
    }
  }
  for (const auto& host : child_only) examine_host(host, "child");
  return cut;
}

std::vector<net::SocketAddress> cut_servers(const ZoneCut& cut, std::uint16_t port) {
  std::vector<net::SocketAddress> good, all;
  for (const auto& view : cut.children) {
    if (view.server.empty() || view.origin == "old") continue;
    auto server = client::parse_server(view.server, port);
    if (!server) continue;
    all.push_back(*server);
    if (view.authoritative) good.push_back(*server);
  }
  return good.empty() ? all : good;
}

void check_cut(const ZoneCut& cut, std::vector<Finding>& findings, bool old_only) {
  auto add = [&](Severity severity, const char* rule, const std::string& subject, std::string message) {
    findings.push_back(make_finding(severity, rule, subject, std::move(message)));
  };
  // The delegated servers' view: the majority serial and answer among authoritative replies.
  std::map<std::string, int> answer_votes;
  std::map<std::uint32_t, int> serial_votes;
  for (const auto& view : cut.children) {
    if (view.origin == "old" || !view.authoritative) continue;
    ++answer_votes[view.answer];
    if (view.serial) ++serial_votes[*view.serial];
  }
  auto top = [](const auto& votes) {
    auto best = votes.begin();
    for (auto it = votes.begin(); it != votes.end(); ++it) {
      if (it->second > best->second) best = it;
    }
    return best;
  };

  if (old_only) {
    for (const auto& view : cut.children) {
      if (view.origin != "old") continue;
      if (!view.answered || !view.authoritative) {
        add(Severity::kInfo, "old-server-gone", view.server,
            fmt::format("old server no longer answers for {} ({})", cut.zone, view.error));
        continue;
      }
      bool same_answer = !answer_votes.empty() && view.answer == top(answer_votes)->first;
      bool same_serial = serial_votes.empty() || (view.serial && *view.serial == top(serial_votes)->first);
      if (same_answer && same_serial) {
        add(Severity::kInfo, "old-server-identical", view.server,
            fmt::format("old server still serves {} with the same data: keep it so until the delegation TTLs have "
                        "passed",
                        cut.zone));
      } else {
        add(Severity::kError, "old-zone-live", view.server,
            fmt::format("old server still answers authoritatively for {} with serial {} and '{}', the delegated "
                        "servers serial {} and '{}': resolvers holding the old delegation (up to {} s at the parent) "
                        "get the old data",
                        cut.zone, view.serial ? std::to_string(*view.serial) : "?", view.answer,
                        serial_votes.empty() ? "?" : std::to_string(top(serial_votes)->first),
                        answer_votes.empty() ? "?" : top(answer_votes)->first, cut.parent_ns_ttl));
      }
    }
    return;
  }

  std::set<std::vector<std::string>> reported_sets;
  bool ttl_reported = false;
  for (const auto& view : cut.children) {
    if (!view.answered) {
      add(Severity::kWarning, "server-unreachable", view.server.empty() ? view.host : view.server,
          fmt::format("{} ({}) for {}: {}", view.host, view.origin, cut.zone, view.error));
      continue;
    }
    if (!view.authoritative) {
      add(Severity::kError, "lame-delegation", view.server,
          fmt::format("{} is listed for {} but answers {}", view.host, cut.zone, view.error));
      continue;
    }
    if (view.ns_set != cut.parent_ns && reported_sets.insert(view.ns_set).second) {
      add(Severity::kWarning, "ns-set-differs", cut.zone,
          fmt::format("parent lists {} but {} lists {}: resolvers see one set or the other", join(cut.parent_ns),
                      view.server, join(view.ns_set)));
    }
    if (view.ns_ttl && *view.ns_ttl != cut.parent_ns_ttl && !ttl_reported) {
      ttl_reported = true;
      add(Severity::kInfo, "ns-ttl-differs", cut.zone,
          fmt::format("parent NS TTL {} s, child NS TTL {} s: after an NS change keep the old servers for the larger, "
                      "{} s (RFC 9199 §3.6.2)",
                      cut.parent_ns_ttl, *view.ns_ttl, std::max(cut.parent_ns_ttl, *view.ns_ttl)));
    }
  }
  std::optional<std::uint32_t> child_ns_ttl;
  for (const auto& view : cut.children) {
    if (view.ns_ttl) child_ns_ttl = std::min(child_ns_ttl.value_or(*view.ns_ttl), *view.ns_ttl);
  }
  for (const auto& glue : cut.glue) {
    std::uint32_t ns_ttl = glue.side == "parent" ? cut.parent_ns_ttl : child_ns_ttl.value_or(glue.ttl);
    if (glue.ttl > ns_ttl) {
      add(Severity::kWarning, "glue-ttl-above-ns", glue.host,
          fmt::format("{} address TTL {} s is above the {} NS TTL {} s of {}", glue.side, glue.ttl, glue.side, ns_ttl,
                      cut.zone));
    }
  }
  if (serial_votes.size() > 1) {
    std::string serials;
    for (const auto& view : cut.children) {
      if (view.serial && view.origin != "old") serials += fmt::format(" {}={}", view.server, *view.serial);
    }
    add(Severity::kError, "serial-differs", cut.zone, "servers of the zone disagree on the SOA serial:" + serials);
  }
  if (answer_votes.size() > 1) {
    std::string answers;
    for (const auto& view : cut.children) {
      if (view.authoritative && view.origin != "old") answers += fmt::format(" {}='{}'", view.server, view.answer);
    }
    add(Severity::kError, "answer-differs", cut.zone, "servers of the zone give different answers:" + answers);
  }
}

}  // namespace cutover::tools
