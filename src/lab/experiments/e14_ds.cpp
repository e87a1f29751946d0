// E14: how long a bad DS is remembered. A signed three-tier world (root, parent "e14." and a
// child zone per case, each signed offline, the lab root's DS the resolver's only trust
// anchor): the resolver validates a name of the child once, then the child changes its key
// while the parent's DS still names the old one (the Slack shape of 2021), and the case
// measures when secure answers come back after one of three remedies:
//   rollback      the child goes back to its old key (the DS was never wrong for it);
//   ds-follows    the parent publishes the new key's DS at the moment the child changes;
//   ds-removed    the child stops signing and the parent withdraws the DS at that moment.
// Expected from the TTL arithmetic: at once for the rollback (the resolver still holds the DS
// that matches the old key), the DS TTL left since the fill for the other two (the resolver
// keeps the old DS that long, and the zone owner does not set it: the parent does). The
// `-cap14` variant sets the resolver's TTL cap to 14 s under a 30 s DS TTL: whether the cap
// applies to DS records. A validator that asks for the child's DNSKEY set again when the old
// one expires gets the new key, which the cached DS does not match, and may remember that key
// as bad for a while (Unbound: val-bogus-ttl, 60 s by default, unbound.conf(5); BIND: its bad
// cache): the cases also expect the DNSKEY TTL left plus 30 s and plus 60 s.
#include <fmt/format.h>

#include "base/clock.h"
#include "client/query.h"
#include "lab/authority/signed_lab.h"
#include "lab/expectations.h"
#include "lab/experiments/common.h"
#include "lab/probe.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

constexpr std::uint32_t kDnskeyTtl = 10;
constexpr std::uint32_t kAnswerTtl = 2;
constexpr double kChangeAfterFill = 1.0;
constexpr double kRollbackAfterChange = 4.0;
// Long enough for the DS TTL and for a resolver that keeps a failed key for a minute
// (Unbound's val-bogus-ttl is 60 s by default, unbound.conf(5)).
constexpr double kWindow = 80.0;
// How long a validator may remember a key it could not validate (see the top of the file).
constexpr double kBadKeyTimes[] = {30.0, 60.0};

enum class Remedy { kRollback, kDsFollows, kDsRemoved };

// The child zone: the lab's wildcard answers `address`.
std::string child_text(const std::string& child, const std::string& host, const char* address, int serial) {
  return fmt::format("$TTL {0}\n{1} SOA ns.{1} hostmaster.{1} {2} 3600 600 86400 {0}\n{1} NS ns.{1}\nns.{1} A {3}\n"
                     "*.{1} A {4}\n",
                     kAnswerTtl, child, serial, host, address);
}

// Whether the resolver says it validated `name` (AD in its reply to a query with AD set,
// RFC 6840 §5.7); nullopt when it did not answer.
std::optional<bool> validated(const net::SocketAddress& resolver, const std::string& name) {
  client::QueryOptions options;
  options.recursion_desired = true;
  options.authentic_data = true;
  options.timeout = std::chrono::milliseconds(1500);
  auto qname = dns::Name::from_text(name);
  if (!qname) return std::nullopt;
  auto reply = client::query(resolver, *qname, dns::RRType::A, options);
  if (!reply) return std::nullopt;
  return reply->response.header.ad;
}

// Asks a fresh name of `child` every second from `reference` until `done` or `window` passes.
std::vector<Observation> poll_fresh_names(CaseContext& context, const std::string& child, const std::string& prefix,
                                          std::int64_t reference, double window, double wait,
                                          const std::function<bool(const Observation&)>& done) {
  std::vector<Observation> observations;
  for (int poll = 0; poll <= static_cast<int>(window); ++poll) {
    std::int64_t at = after(reference, poll);
    if (base::monotonic_ns() < at) base::sleep_until(at);
    if (base::monotonic_ns() >= after(reference, window)) break;
    observations.push_back(ask(context.resolver.address(), fmt::format("{}{}.{}", prefix, poll, child), dns::RRType::A,
                               reference, std::chrono::milliseconds(static_cast<std::int64_t>(wait * 1000))));
    if (done(observations.back())) break;
  }
  return observations;
}

bool failed(const Observation& observation) { return observation.rcode != "NOERROR" || observation.answer.empty(); }

void run_case(Remedy remedy, const std::string& label, std::uint32_t ds_ttl, std::optional<std::uint32_t> cap,
              CaseContext& context, CaseResult& result) {
  auto* lab = context.env.fixture<SignedDelegationLab>();
  if (lab == nullptr) throw LabError("the signed three-tier lab is not running");
  std::string child = fmt::format("{}.{}.{}", label, context.env.tag, SignedDelegationLab::kParent);
  if (context.names != nullptr) context.names->push_back(child);
  LabKey old_key = need(lab->signer().make_key(child, kDnskeyTtl));
  LabKey new_key = need(lab->signer().make_key(child, kDnskeyTtl));
  need(lab->serve_child(child, child_text(child, lab->child_address(), kOldAddress, 1), {old_key}));
  need(lab->delegate(child, {old_key.ds}, ds_ttl));
  std::int64_t filled = fill_cache(context, result, "fill." + child);
  if (result.details["fill"].value("rcode", "") != "NOERROR") {
    throw LabError("the fill of fill." + child + " was " + result.details["fill"].value("rcode", "") +
                   ": the resolver did not resolve the signed lab");
  }
  std::optional<bool> secure = validated(context.resolver.address(), "fill." + child);
  result.details["fill_validated"] = secure ? nlohmann::json(*secure) : nlohmann::json(nullptr);
  if (secure != true) throw LabError("the resolver did not validate fill." + child + " (no AD bit): no trust in the lab");
  result.details["old_key_tag"] = old_key.tag;
  result.details["new_key_tag"] = new_key.tag;
  result.details["ds_ttl"] = ds_ttl;
  result.details["dnskey_ttl"] = kDnskeyTtl;
  result.details["answer_ttl"] = kAnswerTtl;
  double wait = result.client_timeout.value_or(kDefaultClientTimeout) + 1.0;

  base::sleep_until(after(filled, kChangeAfterFill));
  std::int64_t changed = 0;
  if (remedy == Remedy::kDsRemoved) {
    need(lab->serve_child(child, child_text(child, lab->child_address(), kNewAddress, 2), {}));
    changed = need(lab->delegate(child, {}, ds_ttl));
  } else {
    changed = need(lab->serve_child(child, child_text(child, lab->child_address(), kNewAddress, 2), {new_key}));
    if (remedy == Remedy::kDsFollows) changed = need(lab->delegate(child, {new_key.ds}, ds_ttl));
  }
  double since_fill = base::seconds_between(filled, changed);
  result.details["changed_after_fill"] = since_fill;

  if (remedy == Remedy::kRollback) {
    // The bad key is served until the rollback; the polls before it show when validation failed.
    auto before = poll_fresh_names(context, child, "k", changed, kRollbackAfterChange, wait,
                                   [](const Observation&) { return false; });
    nlohmann::json list = nlohmann::json::array();
    for (const auto& observation : before) list.push_back(to_json(observation));
    result.details["before_rollback"] = list;
    for (const auto& observation : before) {
      if (failed(observation)) {
        result.details["first_failure_after_change"] = observation.sent;
        break;
      }
    }
    std::int64_t rolled_back = need(lab->serve_child(child, child_text(child, lab->child_address(), kOldAddress, 3), {old_key}));
    double rolled_back_after = base::seconds_between(changed, rolled_back);
    result.details["rolled_back_after_change"] = rolled_back_after;
    result.observations = poll_fresh_names(context, child, "q", rolled_back, kWindow, wait,
                                           [](const Observation& observation) { return !failed(observation); });
    result.expected = {point("at once", 0), point("DNSKEY TTL", remaining_ttl(kDnskeyTtl, since_fill + rolled_back_after))};
    result.rule = Rule::kFirstAnswer;
    result.rule_value = kOldAddress;
  } else {
    result.observations = poll_fresh_names(context, child, "q", changed, kWindow, wait, [](const Observation& observation) {
      return !failed(observation) && observation.answer.front() == kNewAddress;
    });
    for (const auto& observation : result.observations) {
      if (failed(observation)) {
        result.details["first_failure_after_change"] = observation.sent;
        break;
      }
    }
    double dnskey_left = remaining_ttl(kDnskeyTtl, since_fill);
    result.expected = {point("DS TTL", remaining_ttl(ds_ttl, since_fill)), point("DNSKEY TTL", dnskey_left)};
    if (cap) result.expected.push_back(point("TTL cap", remaining_ttl(*cap, since_fill)));
    for (double bad : kBadKeyTimes) result.expected.push_back(point(fmt::format("DNSKEY TTL + {:g} s bad key", bad), dnskey_left + bad));
    result.rule = Rule::kFirstAnswer;
    result.rule_value = kNewAddress;
  }
  result.window = kWindow;
}

// The Details cell: which clock the resolver followed, and when validation first failed.
std::string e14_details(const CaseResult& result, const std::string& common) {
  std::string text = result.matched.empty() ? common : "follows " + result.matched;
  if (result.details.contains("first_failure_after_change")) {
    text += fmt::format("; first failure {:.1f} s after the key change", result.details["first_failure_after_change"].get<double>());
  }
  return text;
}

}  // namespace

std::vector<CaseSpec> e14_cases(const LabEnv& env) {
  std::vector<CaseSpec> specs;
  // From the signed lab's root hints, with its root key's DS as the only trust anchor.
  ResolverConfig config;
  config.upstream.kind = Upstream::Kind::kRootHints;
  if (auto* lab = env.fixture<SignedDelegationLab>()) {
    config.upstream = {Upstream::Kind::kRootHints, "", lab->root_address(), 53, SignedDelegationLab::kRootServer};
    config.trust_anchor = lab->trust_anchor();
  }
  struct Shape {
    const char* name;
    Remedy remedy;
    std::uint32_t ds_ttl;
    std::optional<std::uint32_t> cap;
  };
  for (const Shape& shape : {Shape{"rollback", Remedy::kRollback, 20, std::nullopt},
                             Shape{"ds-follows", Remedy::kDsFollows, 20, std::nullopt},
                             Shape{"ds-removed", Remedy::kDsRemoved, 20, std::nullopt},
                             Shape{"ds-follows-cap14", Remedy::kDsFollows, 30, 14U}}) {
    ResolverConfig case_config = config;
    case_config.cache.ttl_cap = shape.cap;
    std::string label = shape.name;
    Remedy remedy = shape.remedy;
    std::uint32_t ds_ttl = shape.ds_ttl;
    std::optional<std::uint32_t> cap = shape.cap;
    // Each case on a resolver of its own: a failed validation marks servers and keys in a
    // resolver's infrastructure cache, which would leak into the next case.
    specs.push_back({"E14", label, case_config, label,
                     [label, remedy, ds_ttl, cap](CaseContext& context, CaseResult& result) {
                       run_case(remedy, label, ds_ttl, cap, context, result);
                     }});
  }
  return specs;
}

ExperimentInfo e14_ds_experiment() {
  return {"E14", "How long a bad DS is remembered (signed three-tier lab)", {&signed_delegation_fixture()}, e14_cases,
          {e14_details, {}}};
}

}  // namespace cutover::lab
