// E13: split horizon behind one shared resolver cache. The authority (SplitLab) gives client
// population A its own view and B the default; both ask the same resolver, A first. Views
// chosen by the source address (names under src.) see only the resolver; views chosen by
// Client Subnet (names under ecs.) see A only through a resolver that sends the option, and A's
// answer stays A's only if that resolver also caches per subnet. A view chosen by TSIG key
// cannot be reached through a resolver at all: no resolver signs a client's query with the
// client's key, so that case is reported as not supported, with the reason.
// Measured: the first time B got A's answer (expected: never); the details keep every poll of
// both populations and the views the authority answered with.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/clock.h"
#include "lab/experiments/common.h"
#include "lab/probe.h"
#include "lab/report/results_file.h"
#include "lab/split/split_lab.h"

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

constexpr double kStep = 0.5;         // seconds between the two populations' rounds of polls
constexpr double kWatch = SplitLab::kTtl + 4.0;  // past one TTL, so an expiry is seen

// The lines that make a resolver send Client Subnet to the authority (127.0.0.1) for clients
// in 127.0.0.0/8, in its own syntax; empty for one that has no such setting (BIND 9.18 and
// Knot Resolver 5 send none).
std::vector<std::string> client_subnet_lines(const std::string& adapter, bool subnet_cache) {
  if (adapter == "unbound" && subnet_cache) {
    return {"module-config: \"subnetcache iterator\"", "send-client-subnet: 127.0.0.1",
            "max-client-subnet-ipv4: 24"};
  }
  if (adapter == "pdns-recursor") return {"edns-subnet-allow-list=127.0.0.1", "ecs-add-for=127.0.0.0/8"};
  if (adapter == "dnsmasq") return {"add-subnet=24"};
  return {};
}

Json poll_json(const Observation& observation) {
  return {{"sent", observation.sent},
          {"rcode", observation.rcode},
          {"answer", observation.answer},
          {"ttl", observation.ttl ? Json(*observation.ttl) : Json(nullptr)}};
}

bool holds(const Observation& observation, const char* address) {
  return std::find(observation.answer.begin(), observation.answer.end(), address) != observation.answer.end();
}

void run_split(const std::string& mode, const std::string& label, CaseContext& context, CaseResult& result) {
  const auto* lab = context.env.fixture<SplitLab>();
  if (lab == nullptr) throw LabError("the E13 authority did not start");
  std::string name = fmt::format("w-{}.{}.{}.{}", label, context.env.tag, mode, SplitLab::kZone);
  if (context.names != nullptr) context.names->push_back(name);
  auto source_a = net::parse_socket_address(std::string(SplitLab::kPopulationA) + ":0");
  auto source_b = net::parse_socket_address(std::string(SplitLab::kPopulationB) + ":0");
  if (!source_a || !source_b) throw LabError("the populations' addresses do not parse");
  const net::SocketAddress& resolver = context.resolver.address();
  // Asked directly, the authority gives A its own view (a-src, by A's source address).
  Observation direct_a = ask(lab->dns_address(), name, dns::RRType::A, base::monotonic_ns(), std::chrono::milliseconds(1500),
                             *source_a);
  std::size_t direct_views = lab->views_for(name).size();
  base::sleep_until_phase(kFillPhase, 50'000'000);
  std::int64_t reference = base::monotonic_ns();
  result.fill_phase = base::realtime_phase();
  Observation first_a = ask(resolver, name, dns::RRType::A, reference, std::chrono::milliseconds(1500), *source_a);
  if (first_a.rcode == "TIMEOUT" || first_a.rcode == "ERROR") {
    throw LabError("population A's first query for " + name + " got no reply (" + first_a.rcode + ")");
  }
  result.details["fill"] = {{"rcode", first_a.rcode}, {"answer", first_a.answer},
                            {"ttl", first_a.ttl ? *first_a.ttl : 0}, {"round_trip", first_a.received}};
  std::vector<Observation> a_polls{first_a};
  std::vector<Observation> b_polls;
  std::int64_t end = after(reference, kWatch);
  for (std::int64_t next = after(reference, first_a.received); next < end; next = after(next, kStep)) {
    base::sleep_until(next);
    b_polls.push_back(ask(resolver, name, dns::RRType::A, reference, std::chrono::milliseconds(1500), *source_b));
    a_polls.push_back(ask(resolver, name, dns::RRType::A, reference, std::chrono::milliseconds(1500), *source_a));
  }
  result.observations = b_polls;
  result.window = kWatch;
  result.rule = Rule::kFirstAnswer;
  result.rule_value = SplitLab::kAnswerA;
  result.expected = {Expectation{"B never gets A's view", 0, 0, true}};
  Json a_json = Json::array();
  for (const auto& poll : a_polls) a_json.push_back(poll_json(poll));
  Json& details = result.details;
  details["mode"] = mode;
  details["population_a"] = SplitLab::kPopulationA;
  details["population_b"] = SplitLab::kPopulationB;
  details["direct_a"] = poll_json(direct_a);
  details["a_polls"] = a_json;
  std::size_t a_own = 0;
  for (const auto& poll : a_polls) a_own += holds(poll, SplitLab::kAnswerA) ? 1 : 0;
  details["a_got_own_view"] = a_own;
  details["a_polls_count"] = a_polls.size();
  std::optional<double> first_leak;
  std::optional<double> last_leak;
  for (const auto& poll : b_polls) {
    if (!holds(poll, SplitLab::kAnswerA)) continue;
    if (!first_leak) first_leak = poll.sent;
    last_leak = poll.sent;
  }
  details["b_got_a_from"] = first_leak ? Json(*first_leak) : Json(nullptr);
  details["b_got_a_until"] = last_leak ? Json(*last_leak) : Json(nullptr);
  std::vector<std::string> views = lab->views_for(name);  // the resolver's queries, after the direct one
  views.erase(views.begin(), views.begin() + static_cast<std::ptrdiff_t>(std::min(direct_views, views.size())));
  details["authority_views"] = views;
  auto lines = mode == "ecs" ? client_subnet_lines(context.env.adapter->name(), label == "ecs-subnetcache")
                             : std::vector<std::string>{};
  details["client_subnet_lines"] = lines;
  if (!lines.empty()) result.config += " + " + fmt::format("{}", fmt::join(lines, "; "));
}

// "A own 28/29, B got A's from 0.5 s to 9.5 s; authority: a-ecs×1 -×1"
std::string e13_details(const CaseResult& result, const std::string& common) {
  const Json& details = result.details;
  if (!details.contains("a_polls_count")) return common.empty() ? result.note : common;
  std::map<std::string, int> views;
  for (const auto& view : details.value("authority_views", Json::array())) views[view.get<std::string>()] += 1;
  std::string seen;
  for (const auto& [view, count] : views) seen += fmt::format("{}{}×{}", seen.empty() ? "" : " ", view, count);
  std::string leak = details["b_got_a_from"].is_null()
                         ? "B never got A's answer"
                         : fmt::format("B got A's answer from {:.1f} s to {:.1f} s", details["b_got_a_from"].get<double>(),
                                       details["b_got_a_until"].get<double>());
  return fmt::format("A got its own view in {} of {} polls; {}; the authority answered {}",
                     details["a_got_own_view"].get<std::size_t>(), details["a_polls_count"].get<std::size_t>(), leak,
                     seen.empty() ? "nothing" : seen);
}

}  // namespace

std::vector<CaseSpec> e13_cases(const LabEnv& env) {
  std::vector<CaseSpec> specs;
  ResolverConfig config;
  config.upstream.kind = Upstream::Kind::kStub;
  config.upstream.zone = SplitLab::kZone;
  config.upstream.host = "127.0.0.1";
  if (const auto* lab = env.fixture<SplitLab>(); lab != nullptr) config.upstream.port = lab->dns_port();
  std::string adapter = env.adapter != nullptr ? env.adapter->name() : "";
  std::vector<std::pair<std::string, std::string>> cases = {{"src", "src"}, {"ecs", "ecs"}};
  if (adapter == "unbound") cases.emplace_back("ecs", "ecs-subnetcache");  // with and without its subnet module
  for (const auto& [mode_text, label_text] : cases) {
    std::string mode = mode_text;  // named copies: clang 14 cannot capture structured bindings
    std::string label = label_text;
    ResolverConfig with = config;
    if (mode == "ecs") with.extra_lines = client_subnet_lines(adapter, label == "ecs-subnetcache");
    // Each case on its own instance: a cache shared with another case would be a third population.
    specs.push_back({"E13", label, with, "e13-" + label,
                     [mode, label](CaseContext& context, CaseResult& result) { run_split(mode, label, context, result); }});
  }
  CaseSpec tsig;
  tsig.experiment = "E13";
  tsig.name = "tsig";
  tsig.run_isolated = [](const LabEnv&, CaseResult& result) {
    result.verdict = Verdict::kNotSupported;
    result.note =
        "a view by TSIG key (match-keys) cannot be chosen through a resolver: a resolver signs no client's query "
        "with the client's key, so such a view serves only clients that ask the authority directly";
  };
  specs.push_back(std::move(tsig));
  return specs;
}

ExperimentInfo e13_split_experiment() {
  return {"E13", "Split horizon behind one resolver cache (views by source, Client Subnet, TSIG)",
          {&split_fixture()}, e13_cases, {e13_details}};
}

}  // namespace cutover::lab
