// E12: answer rotation versus request distribution. Two addresses (origin a on 127.0.0.2,
// b on 127.0.0.3) answered in cyclic order by `cutover serve` (zones[].rrset-order: cyclic)
// and, as the control, by BIND (`rrset-order { order cyclic; };`). Before the client starts,
// the case asks the authority and the resolver six times each and keeps the order of every
// answer; then the client makes one request every 0.25 s and the case counts the requests
// each origin served: answer rotation counts answers, the origins count requests, and a
// client that looks the name up once (or keeps its connection) sends all of them to one
// address. Then the origin the first request reached stops (refused): in a static RRset its
// address stays in every answer, so only a client that tries the next address recovers; in
// a cutover pool (all-healthy, tcp check I = 1 s, T = 0.5 s, F = 2, TTL 2 s) it leaves the
// answer after the detection D, and the resolver's after D + K. Measured: the first request
// after the stop that reached the live origin, seconds after the stop (docs/lab.md, "E12").
#include <algorithm>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "client/query.h"
#include "lab/experiments/client_common.h"
#include "lab/probe.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

constexpr double kInterval = 0.25;
constexpr double kStopAfterFirst = 3 + kInterval / 2;  // midway between two request slots
constexpr int kOrderQueries = 6;
constexpr std::uint32_t kStaticTtl = 30;
constexpr std::uint32_t kPoolTtl = 2;
constexpr double kStaticAfterStop = 4;
constexpr double kPollStep = 0.25;
// The pool's check (docs/pools.md, "Detection"): D in [(F-1)·I, F·I + T] = [1, 2.5] s.
constexpr double kDetectionHigh = 2.5;
constexpr double kPoolRunCap = 12;  // seconds after the stop, at most
// A client that tries the next address of its answer once the first refuses is back within
// the request that found the stop, or the next slot.
constexpr double kFallbackHigh = 2 * kInterval;

enum class Authority { kCutoverStatic, kBindStatic, kCutoverPool };

const char* authority_text(Authority authority) {
  switch (authority) {
    case Authority::kCutoverStatic: return "cutover static";
    case Authority::kBindStatic: return "BIND static";
    case Authority::kCutoverPool: return "cutover pool";
  }
  return "?";
}

std::string zone_text(bool with_static_rrset) {
  std::string text = fmt::format(
      "$ORIGIN {0}\n$TTL 30\n@ IN SOA ns.{0} hostmaster.{0} 1 3600 600 86400 2\n@ IN NS ns\nns IN A 127.0.0.1\n"
      "ready IN A 192.0.2.1\n",
      ClientCase::kZone);
  if (with_static_rrset) {
    text += fmt::format("e12 {0} IN A {1}\ne12 {0} IN A {2}\n", kStaticTtl, kOriginV4First, kOriginV4Second);
  }
  return text;
}

std::string pool_yaml() {
  return fmt::format(
      "pools:\n  e12:\n    name: e12.{}\n    shape: all-healthy\n    ttl: {}\n"
      "    check: {{type: tcp, interval: 1000ms, timeout: 500ms, fall: 2, rise: 2}}\n    endpoints:\n"
      "      - {{address: {}, port: 80, priority: 1}}\n      - {{address: {}, port: 80, priority: 1}}\n",
      std::string(ClientCase::kZone).substr(0, std::string(ClientCase::kZone).size() - 1), kPoolTtl, kOriginV4First,
      kOriginV4Second);
}

std::string identity_of(const std::string& address) {
  if (address == kOriginV4First) return kOldOrigin;
  if (address == kOriginV4Second) return kNewOrigin;
  return "?";
}

// The answers' orders as identities, one word per answer ("ab ba ab").
std::string orders_text(const Json& polls) {
  std::string out;
  for (const auto& poll : polls) {
    Observation observation = observation_from_json(poll);
    if (!out.empty()) out += " ";
    if (observation.answer.empty()) out += observation.rcode;
    for (const auto& address : observation.answer) out += identity_of(address);
  }
  return out;
}

Json polls_json(const std::vector<Observation>& observations) {
  Json out = Json::array();
  for (const auto& observation : observations) out.push_back(to_json(observation));
  return out;
}

// The first poll (seconds after the stop) whose answer no longer holds `address`, or null.
Json left_at(const Json& polls, const std::string& address) {
  for (const auto& poll : polls) {
    Observation observation = observation_from_json(poll);
    if (observation.rcode != "NOERROR" || observation.answer.empty()) continue;
    if (std::find(observation.answer.begin(), observation.answer.end(), address) == observation.answer.end()) {
      return std::round(observation.sent * 1000) / 1000;
    }
  }
  return nullptr;
}

// What follows from the observations alone (ExperimentReport::derive_details): the requests
// each origin served before the stop, the errors and requests after it, and when the stopped
// address left the authority's and the resolver's answers.
void e12_derive(CaseResult& result) {
  if (!result.details.contains("stopped")) return;
  Json before = {{kOldOrigin, 0}, {kNewOrigin, 0}, {"errors", 0}};
  Json after = {{kOldOrigin, 0}, {kNewOrigin, 0}, {"errors", 0}};
  for (const auto& observation : result.observations) {
    Json& side = observation.sent < 0 ? before : after;
    if (observation.rcode != "NOERROR" || observation.answer.empty()) {
      side["errors"] = side["errors"].get<int>() + 1;
    } else if (side.contains(observation.answer.front())) {
      side[observation.answer.front()] = side[observation.answer.front()].get<int>() + 1;
    }
  }
  result.details["before_stop"] = before;
  result.details["after_stop"] = after;
  std::string stopped_address = result.details["stopped_address"].get<std::string>();
  result.details["left_authority"] = left_at(result.details["authority_after_stop"], stopped_address);
  result.details["left_resolver"] = left_at(result.details["resolver_after_stop"], stopped_address);
  result.details["authority_order"] = orders_text(result.details["authority_orders"]);
  result.details["resolver_order"] = orders_text(result.details["resolver_orders"]);
}

std::vector<Observation> ask_times(const net::SocketAddress& server, const std::string& name, std::int64_t reference) {
  std::vector<Observation> out;
  for (int i = 0; i < kOrderQueries; ++i) {
    out.push_back(ask(server, name, dns::RRType::A, reference, std::chrono::milliseconds(1000)));
  }
  return out;
}

// A pool's answer holds both origins while neither has failed its check: wait for that (at
// most 10 s) so the orders asked next are the rotation's, not a check's start-up on a loaded
// machine. Without both, the case goes on and its orders show one address.
void wait_for_both_origins(const net::SocketAddress& server, const std::string& name) {
  std::int64_t reference = base::monotonic_ns();
  std::int64_t deadline = reference + 10'000'000'000;
  while (base::monotonic_ns() < deadline) {
    Observation seen = ask(server, name, dns::RRType::A, reference, std::chrono::milliseconds(200));
    if (seen.answer.size() == 2) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

ClientVariant rotation_variant(const std::string& label, Authority authority, OriginBehaviour behaviour) {
  ClientCaseBody body;
  body.setup = [authority, behaviour](const ClientAdapter&) {
    ClientCaseSetup setup;
    setup.origins = {{kOldOrigin, kOriginV4First, 80, behaviour}, {kNewOrigin, kOriginV4Second, 80, behaviour}};
    ZoneServerSpec spec;
    spec.kind = authority == Authority::kBindStatic ? ZoneServerSpec::Kind::kBind : ZoneServerSpec::Kind::kCutover;
    spec.zone = ClientCase::kZone;
    spec.zone_text = zone_text(authority != Authority::kCutoverPool);
    if (authority == Authority::kCutoverPool) spec.pools_yaml = pool_yaml();
    setup.zone_server = spec;
    setup.resolver_keeps_order = false;  // the resolver as deployed: Unbound rotates by default
    return setup;
  };
  body.run = [authority, behaviour](ClientCase& world, ClientSuite& suite, const ClientSuite::Client& client,
                                    CaseResult& result) {
    std::string name = ClientCase::name("e12");
    ZoneServer* server = world.zone_server();
    if (server == nullptr) throw LabError("E12's zone server did not start");
    auto resolver = *client::parse_server("127.0.0.1:53");
    bool pool = authority == Authority::kCutoverPool;
    if (pool) wait_for_both_origins(server->address(), name);
    std::int64_t reference = base::monotonic_ns();
    auto authority_orders = ask_times(server->address(), name, reference);
    auto resolver_orders = ask_times(resolver, name, reference);

    ClientCache cache = client.adapter->cache();
    std::vector<Expectation> expected = {{"next address", 0, kFallbackHigh}};
    double after_stop = kStaticAfterStop;
    if (pool) {
      // A client that does not fall back reaches the live origin once its answer lost the
      // stopped address: D, then the resolver's TTL, then the rest of its own cache.
      double client_rest = cache.kind == ClientCache::Kind::kFromFirstLookup
                               ? std::max(0.0, cache.seconds - kStopAfterFirst)
                               : 0.0;
      double high = kDetectionHigh + kPoolTtl + client_rest + kInterval;
      bool beyond = cache.kind == ClientCache::Kind::kForever || high + 1.5 > kPoolRunCap;
      after_stop = beyond ? kPoolRunCap : high + 2;
      expected.push_back(beyond ? Expectation{"D + K + C", 0, 0, true} : Expectation{"D + K + C", 0, high});
    }
    double run_seconds = kStopAfterFirst + after_stop;
    ClientInvocation run{"http://" + name.substr(0, name.size() - 1) + "/", kInterval,
                         static_cast<int>(run_seconds / kInterval) + 1, std::nullopt};
    double first = start_and_wait_first(world, suite, client, run);
    auto first_line = parse_request_line(world.lines().front());
    if (!first_line || !first_line->origin || (*first_line->origin != kOldOrigin && *first_line->origin != kNewOrigin)) {
      throw LabError("the client's first request reached no origin: " + world.lines().front());
    }
    std::size_t stopped_index = *first_line->origin == kOldOrigin ? 0 : 1;
    std::string stopped_address = stopped_index == 0 ? kOriginV4First : kOriginV4Second;
    std::string live = stopped_index == 0 ? kNewOrigin : kOldOrigin;
    sleep_until_unix(first + kStopAfterFirst);
    double stopped = unix_now();
    std::int64_t stopped_ns = base::monotonic_ns();
    world.origin(stopped_index).stop();

    std::vector<Observation> authority_after, resolver_after;
    std::int64_t end_ns = stopped_ns + static_cast<std::int64_t>(after_stop * 1e9);
    for (std::int64_t at = stopped_ns; at < end_ns; at += static_cast<std::int64_t>(kPollStep * 1e9)) {
      base::sleep_until(at);
      authority_after.push_back(ask(server->address(), name, dns::RRType::A, stopped_ns, std::chrono::milliseconds(200)));
      resolver_after.push_back(ask(resolver, name, dns::RRType::A, stopped_ns, std::chrono::milliseconds(200)));
    }
    world.wait_for_exit(first + run_seconds + 15);
    world.record(result, stopped, RequestClock::kStart);
    auto& details = result.details;
    details["authority"] = authority_text(authority);
    details["authority_version"] = server->version();
    details["origin_behaviour"] = behaviour_text(behaviour);
    details["record_ttl"] = pool ? kPoolTtl : kStaticTtl;
    details["stopped"] = std::string(stopped_index == 0 ? kOldOrigin : kNewOrigin);
    details["stopped_address"] = stopped_address;
    details["stop_after_first"] = stopped - first;
    // Orders before the client started, seconds after the first of them.
    details["authority_orders"] = polls_json(authority_orders);
    details["resolver_orders"] = polls_json(resolver_orders);
    details["authority_after_stop"] = polls_json(authority_after);
    details["resolver_after_stop"] = polls_json(resolver_after);
    result.expected = expected;
    result.rule = Rule::kFirstAnswerAfter;
    result.rule_value = live;
    result.window = after_stop;
    e12_derive(result);
  };
  return {label, body};
}

std::string counts_text(const Json& counts) {
  if (!counts.is_object()) return "—";
  std::string out = fmt::format("{}:{}", counts.value(kOldOrigin, 0), counts.value(kNewOrigin, 0));
  if (counts.value("errors", 0) > 0) out += fmt::format(" ({} err)", counts.value("errors", 0));
  return out;
}

std::string left_text(const Json& details, const char* key) {
  if (!details.contains(key)) return "—";
  return details[key].is_number() ? fmt::format("{:.2f}", details[key].get<double>()) : "stays";
}

std::string e12_table(const RunResults& results) {
  std::string out =
      "Two addresses in cyclic order (a 127.0.0.2, b 127.0.0.3). Orders: the first six answers of the authority and of "
      "the resolver before the client started (one word per answer). Then one request every 0.25 s; a:b counts the "
      "requests each origin served before the origin of the first request stopped (3.1 s after it) and after the "
      "stop. Left: seconds after the stop until the stopped address left the authority's / the resolver's answer "
      "(\"stays\": it never did). First live: the first request after the stop that reached the other origin; "
      "Expected: the next address at once, or for a pool D + K + the client's cache. Tolerance −1.2 s to +1.5 s.\n\n"
      "| Runtime | Version | Setting | Authority | Origins | Authority order | Resolver order | Before a:b | Stopped | "
      "After a:b | Left auth / res | Expected | First live | Pass |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& result : results.cases) {
    if (result.experiment != "E12") continue;
    const Json& details = result.details;
    out += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} / {} | {} | {} | {} |\n", client_runtime_cell(result),
        client_version_cell(result), client_setting_cell(result),
        markdown_cell(details.value("authority", "—") +
                      (details.contains("authority_version") ? " (" + details["authority_version"].get<std::string>() + ")" : "")),
        details.value("origin_behaviour", "—"), details.value("authority_order", "—"), details.value("resolver_order", "—"),
        counts_text(details.value("before_stop", Json())), details.value("stopped", "—"),
        counts_text(details.value("after_stop", Json())), left_text(details, "left_authority"),
        left_text(details, "left_resolver"), expected_text(result),
        first_new_cell(result),
        client_pass_cell(result));
  }
  return out;
}

// report.html: per case, the requests each origin served before the stop and after it, as
// stacked bars (a grey, b blue, errors red), 6 px per request, each half capped at its width.
std::string e12_figure(const RunResults& results) {
  std::vector<const CaseResult*> rows;
  for (const auto& result : results.cases) {
    if (result.experiment == "E12" && result.details.contains("before_stop")) rows.push_back(&result);
  }
  if (rows.empty()) return {};
  constexpr double kLeft = 190, kUnit = 6, kHalf = 300, kRow = 16;
  double height = 24 + kRow * static_cast<double>(rows.size());
  std::string svg = fmt::format(
      "<h3>E12 requests per origin, before the stop (left) and after it (right): grey a, blue b, red failed</h3>"
      "<svg width=\"{}\" height=\"{}\" font-size=\"10\" font-family=\"sans-serif\">\n"
      "<text x=\"{}\" y=\"10\">before the stop</text><text x=\"{}\" y=\"10\">after the stop</text>\n",
      kLeft + 2 * kHalf + 20, height, kLeft, kLeft + kHalf);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CaseResult& result = *rows[i];
    double y = 16 + kRow * static_cast<double>(i);
    svg += fmt::format("<text x=\"2\" y=\"{:.1f}\">{}</text>\n", y + 9, html_escape(result.name));
    double x0 = kLeft;
    for (const char* side : {"before_stop", "after_stop"}) {
      const Json& counts = result.details[side];
      double x = x0;
      for (auto [key, colour] : {std::pair{kOldOrigin, "#999"}, std::pair{kNewOrigin, "#26c"}, std::pair{"errors", "#d22"}}) {
        int count = counts.value(key, 0);
        if (count == 0) continue;
        double width = std::min(kUnit * count, kHalf - 10 - (x - x0));
        svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"11\" fill=\"{}\"><title>{} {}</title>"
                           "</rect>\n",
                           x, y, width, colour, key, count);
        x += width;
      }
      x0 += kHalf;
    }
  }
  return svg + "</svg>\n";
}

}  // namespace

ExperimentInfo e12_rotation_experiment() {
  ExperimentInfo info;
  info.id = "E12";
  info.title = "Answer rotation versus request distribution, and a stopped origin in a static RRset and in a pool";
  info.cases = [](const LabEnv& env) {
    return client_case_specs(env, "E12",
                             {rotation_variant("static", Authority::kCutoverStatic, OriginBehaviour::kCloseEach),
                              rotation_variant("static-keep", Authority::kCutoverStatic, OriginBehaviour::kKeepOpen),
                              rotation_variant("bind", Authority::kBindStatic, OriginBehaviour::kCloseEach),
                              rotation_variant("pool", Authority::kCutoverPool, OriginBehaviour::kCloseEach)});
  };
  info.report.table = e12_table;
  info.report.figure = e12_figure;
  info.report.derive_details = e12_derive;
  return info;
}

}  // namespace cutover::lab
