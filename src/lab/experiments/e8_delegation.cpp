// E8: parent vs child NS TTL. Each case gets its own child zone under "e8.", delegated by the
// parent to the old server; the resolver starts from root hints and is filled once, then the
// parent moves the delegation to the new server (1 s after the fill) and the resolver is asked
// a fresh name every second. Expected: the parent's or the child's NS TTL minus the time from
// fill to change; the report says which one the resolver followed. The child servers answer
// non-minimally (their NS RRset in the authority section of positive answers, as BIND and NSD
// do), so a resolver can learn the child's NS TTL without asking NS itself; the "-minimal"
// cases keep the minimal replies to show what a resolver does when it never sees the child NS.
#include <fmt/format.h>

#include "base/clock.h"
#include "lab/authority/delegation_lab.h"
#include "lab/expectations.h"
#include "lab/experiments/common.h"
#include "lab/probe.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

void serve_child(AuthorityProcess& server, const std::string& child, const std::string& ns_label,
                 std::uint32_t child_ttl, const std::string& address, bool ns_in_authority) {
  std::string ns = ns_label + "." + child;
  need(server.put_zone(child, 60, 60, {.ns_in_authority = ns_in_authority}));
  need(server.put_rrset(child, "NS", child_ttl, {ns}));
  need(server.put_rrset(ns, "A", child_ttl, {server.host()}));
  need(server.put_rrset("*." + child, "A", 60, {address}));
}

void delegate(AuthorityProcess& parent, const std::string& child, const std::string& ns_label,
              std::uint32_t parent_ttl, const std::string& server_host) {
  std::string ns = ns_label + "." + child;
  need(parent.put_rrset(ns, "A", parent_ttl, {server_host}));
  need(parent.put_rrset(child, "NS", parent_ttl, {ns}));
}

void run_switch(std::uint32_t parent_ttl, std::uint32_t child_ttl, bool ns_in_authority, CaseContext& context,
                CaseResult& result) {
  DelegationLab* lab = context.env.fixture<DelegationLab>();
  if (lab == nullptr) throw LabError("the three-tier lab is not running");
  std::string child = fmt::format("p{}c{}{}.{}.{}", parent_ttl, child_ttl, ns_in_authority ? "" : "m",
                                  context.env.tag, DelegationLab::kParent);
  serve_child(lab->old_server(), child, "ns-old", child_ttl, kOldAddress, ns_in_authority);
  serve_child(lab->new_server(), child, "ns-new", child_ttl, kNewAddress, ns_in_authority);
  delegate(lab->top(), child, "ns-old", parent_ttl, lab->old_server().host());
  if (context.names != nullptr) context.names->push_back(child);  // its NS, glue and every name below
  std::int64_t filled = fill_cache(context, result, "fill." + child);
  // What the resolver holds for the child zone before the move (its NS RRset's TTL and trust:
  // the parent's referral or the child's own), read inside the second before it.
  if (!context.env.adapter->external()) {
    result.details["introspection_at_move"] = context.env.adapter->introspect(context.resolver.dir(), {child});
  }
  base::sleep_until(after(filled, 1));
  need(lab->top().put_rrset("ns-new." + child, "A", parent_ttl, {lab->new_server().host()}));
  std::int64_t moved = need(lab->top().put_rrset(child, "NS", parent_ttl, {"ns-new." + child}));
  need(lab->top().delete_name("ns-old." + child));
  double since_fill = base::seconds_between(filled, moved);
  result.details["parent_ns_ttl"] = parent_ttl;
  result.details["child_ns_ttl"] = child_ttl;
  result.details["child_ns_in_authority"] = ns_in_authority;
  result.details["moved_after_fill"] = since_fill;
  result.expected = {point("parent", remaining_ttl(parent_ttl, since_fill)),
                     point("child", remaining_ttl(child_ttl, since_fill))};
  double window = std::max(parent_ttl, child_ttl) + 15.0;
  for (int poll = 0; poll < static_cast<int>(window); ++poll) {
    base::sleep_until(after(moved, poll));
    Observation observation = ask(context.resolver.address(), fmt::format("q{}.{}", poll, child), dns::RRType::A,
                                  moved, std::chrono::milliseconds(900));
    result.observations.push_back(observation);
    if (observation.rcode == "NOERROR" && !observation.answer.empty() && observation.answer.front() == kNewAddress) break;
  }
  result.rule = Rule::kFirstAnswer;
  result.rule_value = kNewAddress;
  result.window = window;
}


using Json = nlohmann::json;

// The Details cell: which NS TTL the resolver followed.
std::string e8_details(const CaseResult& result, const std::string& common) {
  return result.matched.empty() ? common : "follows " + result.matched;
}

// Seconds until each resolver used the new delegation, against the parent and child NS TTLs.
std::string e8_bars(const RunResults& results) {
  std::string bars;
  int row = 0;
  for (const auto& result : results.cases) {
    if (result.experiment != "E8" || !result.measured) continue;
    int y = 10 + row++ * 22;
    bars += fmt::format("<text x=\"0\" y=\"{}\">{} {}</text><rect x=\"220\" y=\"{}\" width=\"{:.1f}\" height=\"14\" "
                        "fill=\"#1f77b4\"/><text x=\"{:.1f}\" y=\"{}\">{:.1f} s ({})</text>\n",
                        y + 11, html_escape(result.resolver), html_escape(result.name), y, *result.measured * 8,
                        226 + *result.measured * 8, y + 11, *result.measured, html_escape(result.matched));
  }
  if (bars.empty()) return {};
  return fmt::format("<h3>E8 seconds until the new delegation was used</h3><svg width=\"620\" height=\"{}\" "
                     "font-size=\"11\" font-family=\"sans-serif\">\n{}</svg>\n",
                     row * 22 + 20, bars);
}

}  // namespace

std::vector<CaseSpec> e8_cases(const LabEnv& env) {
  std::vector<CaseSpec> specs;
  ResolverConfig config;
  config.upstream.kind = Upstream::Kind::kRootHints;
  config.upstream.port = 53;
  config.upstream.root_name = DelegationLab::kRootServer;
  if (const auto* lab = env.fixture<DelegationLab>()) config.upstream.host = lab->root_address();
  for (bool ns_in_authority : {true, false}) {
    for (auto ttls : {std::pair{6U, 30U}, std::pair{30U, 6U}}) {
      unsigned parent_ttl = ttls.first;  // named copies: clang 14 cannot capture a structured binding
      unsigned child_ttl = ttls.second;
      specs.push_back({"E8", fmt::format("parent{}-child{}{}", parent_ttl, child_ttl, ns_in_authority ? "" : "-minimal"),
                       config, "", [parent_ttl, child_ttl, ns_in_authority](CaseContext& context, CaseResult& result) {
                         run_switch(parent_ttl, child_ttl, ns_in_authority, context, result);
                       }});
    }
  }
  return specs;
}

ExperimentInfo e8_delegation_experiment() {
  return {"E8", "Parent vs child NS TTL (three-tier lab)", {&delegation_fixture()}, e8_cases, {e8_details, e8_bars}};
}

}  // namespace cutover::lab
