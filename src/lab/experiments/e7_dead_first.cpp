// E7: the first of two addresses dead. The name has a dead address and a live one, the dead
// one first on the wire: refused (nothing listens: the kernel answers the SYN with a reset)
// or blackholed (an nftables rule in the case's namespace drops the SYNs), for an IPv4 list
// and dual stack (dead AAAA with a live A, and the reverse), with a 3 s connect timeout and
// with the runtime's default (the harness stops the client after 20 s). One request;
// measured: seconds from its start until its outcome reached the lab, if it reached the live
// origin. Before the client runs, the resolver's order and glibc's (getent ahosts, RFC 6724
// sorting) are recorded, and the dead address's SYN counter is read afterwards, so a case that
// never tried the dead address says so (docs/lab.md, "E7").
#include <sstream>

#include <fmt/format.h>

#include "base/clock.h"
#include "lab/experiments/client_common.h"
#include "lab/probe.h"
#include "lab/process.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

constexpr double kCap = 20;           // the harness cap of a runtime's default timeout
constexpr double kConnectTimeout = 3;
constexpr std::uint32_t kTtl = 60;

struct DeadFirst {
  std::string family;  // "v4", "v6" (dead AAAA, live A), "v6rev" (dead A, live AAAA)
  bool blackhole = false;
  bool timeout = false;  // a 3 s connect timeout; else the runtime's default
  std::string dead() const { return family == "v6" ? kOriginV6First : kOriginV4First; }
  std::string live() const { return family == "v6rev" ? kOriginV6Second : kOriginV4Second; }
  std::string label() const {
    return family + "-" + (blackhole ? "blackhole" : "refused") + (timeout ? "-t3" : "-default");
  }
};

std::string nft_rules(const DeadFirst& row) {
  std::string match = fmt::format("{} daddr {} tcp dport 80 tcp flags & (syn | ack) == syn", row.dead().find(':') != std::string::npos ? "ip6" : "ip", row.dead());
  return fmt::format("table inet cutover_lab {{\n  chain input {{\n    type filter hook input priority 0; policy accept;\n"
                     "    {} counter{}\n  }}\n}}\n",
                     match, row.blackhole ? " drop" : "");
}

// The packets counted by the rule of nft_rules() in `nft -j list ruleset` output, -1 if none.
long dead_syns(const std::string& listing) {
  nlohmann::json json = nlohmann::json::parse(listing, nullptr, false);
  if (json.is_discarded()) return -1;
  for (const auto& item : json.value("nftables", nlohmann::json::array())) {
    if (!item.contains("rule")) continue;
    for (const auto& expr : item["rule"].value("expr", nlohmann::json::array())) {
      if (expr.contains("counter")) return expr["counter"].value("packets", -1L);
    }
  }
  return -1;
}

std::vector<std::string> getent_order(ClientCase& world, const std::string& name) {
  std::vector<std::string> argv = world.network().exec_prefix();
  for (const std::string& arg : {std::string("getent"), std::string("ahosts"), name}) argv.push_back(arg);
  std::istringstream lines(run_capture(argv).text);
  std::vector<std::string> order;
  std::string line;
  while (std::getline(lines, line)) {
    std::string address = line.substr(0, line.find(' '));
    // getent ahosts asks AF_UNSPEC with AI_V4MAPPED: IPv4 answers come back as ::ffff:a.b.c.d.
    if (address.rfind("::ffff:", 0) == 0 && address.find('.') != std::string::npos) address = address.substr(7);
    if (line.find("STREAM") != std::string::npos && !address.empty()) order.push_back(address);
  }
  return order;
}

ClientVariant variant(const DeadFirst& row) {
  ClientCaseBody body;
  body.setup = [row](const ClientAdapter&) {
    ClientCaseSetup setup;
    setup.origins = {{kNewOrigin, row.live(), 80, OriginBehaviour::kCloseEach}};
    setup.nft_rules = nft_rules(row);
    return setup;
  };
  body.run = [row](ClientCase& world, ClientSuite& suite, const ClientSuite::Client& client, CaseResult& result) {
    std::string name = ClientCase::name("e7");
    std::string dead_type = row.dead().find(':') != std::string::npos ? "AAAA" : "A";
    if (row.family == "v4") {
      need(world.authority().put_rrset(name, "A", kTtl, {row.dead(), row.live()}));
    } else {
      need(world.authority().put_rrset(name, dead_type, kTtl, {row.dead()}));
      need(world.authority().put_rrset(name, dead_type == "A" ? "AAAA" : "A", kTtl, {row.live()}));
    }
    // What the resolver answers (the wire order) and what glibc hands its callers.
    Observation wire = ask(world.resolver_address(), name, row.family == "v4" ? dns::RRType::A : dns::RRType::AAAA,
                           base::monotonic_ns());
    std::vector<std::string> glibc = getent_order(world, name);
    result.details["resolver_order"] = wire.answer;
    result.details["glibc_order"] = glibc;
    bool dead_first_glibc = !glibc.empty() && glibc.front() == row.dead();
    result.details["dead_first_glibc"] = dead_first_glibc;
    if (row.family == "v4" && (wire.answer.empty() || wire.answer.front() != row.dead())) {
      result.note = "the resolver did not put the dead address first";
    } else if (!dead_first_glibc) {
      result.note = "glibc's getaddrinfo put the live address first (RFC 6724 sorting)";
    }
    result.details["family"] = row.family;
    result.details["dead"] = row.blackhole ? "blackhole" : "refused";
    result.details["connect_timeout"] = row.timeout ? nlohmann::json(kConnectTimeout) : nlohmann::json(nullptr);
    ClientInvocation run{"http://" + name.substr(0, name.size() - 1) + "/", 1, 1,
                         row.timeout ? std::optional<double>(kConnectTimeout) : std::nullopt};
    double started = unix_now();
    auto launched = world.start_client(*client.adapter, suite.paths(), run);
    if (!launched) throw LabError(launched.error().message);
    // The gate is held for the program's start (a JVM's second), not for the capped wait.
    world.wait_for_lines(1, started + 1.5);
    world.release_start_gate();
    bool exited = world.wait_for_exit(started + kCap);
    result.details["capped"] = !exited;
    // Elapsed counts from the request's own start when it printed one, else from the launch.
    double reference = started;
    if (!world.lines().empty()) {
      auto first = parse_request_line(world.lines().front());
      if (first) reference = first->t;
    }
    world.record(result, reference, RequestClock::kOutcome);
    result.details["dead_syns"] = dead_syns(world.network().list_rules());
    double expected_high = row.family == "v4" ? (row.blackhole ? (row.timeout ? kConnectTimeout : kCap) : 1.0) : 2.0;
    std::string label = row.family != "v4"     ? "the other family within 2 s (RFC 8305)"
                        : !row.blackhole        ? "the next address after a refusal"
                        : row.timeout           ? "the next address after one 3 s timeout"
                                                : "the next address within the 20 s cap";
    result.expected = {{label, 0, expected_high}};
    result.rule = Rule::kFirstOk;
    result.window = kCap;
  };
  return {row.label(), body};
}

std::string outcome_text(const CaseResult& result) {
  if (result.verdict == Verdict::kNotSupported || result.verdict == Verdict::kError) return "—";
  for (const auto& observation : result.observations) {
    if (observation.rcode == "NOERROR") return "ok " + (observation.answer.empty() ? std::string("?") : observation.answer.front());
    return observation.rcode + fmt::format(" at {:.2f}", observation.sent);
  }
  return fmt::format("no outcome within the {:g} s cap", kCap);
}

std::string e7_table(const RunResults& results) {
  std::string out =
      "One request; the dead address first on the wire (v4: dead A then live A; v6: dead AAAA, live A; v6rev: dead "
      "A, live AAAA). Elapsed: seconds from the request's start until its outcome reached the lab (curl's includes "
      "the process start). Dead SYNs: SYNs the namespace saw for the dead address (0: never tried). default: no "
      "timeout set, the harness stops the client after 20 s. Tolerance −1.2 s to +1.5 s.\n\n"
      "| Runtime | Version | Fam | Dead | Timeout | Order (resolver / glibc) | Dead SYNs | Outcome | Elapsed | Expected | "
      "Delta | Pass |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& result : results.cases) {
    if (result.experiment != "E7") continue;
    auto join = [&](const char* key) {
      std::string text;
      for (const auto& item : result.details.value(key, nlohmann::json::array())) text += (text.empty() ? "" : " ") + item.get<std::string>();
      return text.empty() ? std::string("—") : text;
    };
    const auto& timeout = result.details.value("connect_timeout", nlohmann::json(nullptr));
    out += fmt::format("| {} | {} | {} | {} | {} | {} / {} | {} | {} | {} | {} | {} | {} |\n", client_runtime_cell(result),
                       client_version_cell(result), result.details.value("family", "—"),
                       result.details.value("dead", "—"), timeout.is_number() ? fmt::format("{:g}", timeout.get<double>()) : "default",
                       join("resolver_order"), join("glibc_order"),
                       result.details.contains("dead_syns") ? result.details["dead_syns"].dump() : "—", outcome_text(result),
                       seconds_text(result.measured), expected_text(result), seconds_text(result.delta, true),
                       client_pass_cell(result));
  }
  return out;
}

}  // namespace

ExperimentInfo e7_dead_first_experiment() {
  ExperimentInfo info;
  info.id = "E7";
  info.title = "The first of two addresses dead";
  info.cases = [](const LabEnv& env) {
    std::vector<ClientVariant> variants;
    for (const char* family : {"v4", "v6", "v6rev"}) {
      variants.push_back(variant({family, false, false}));
      variants.push_back(variant({family, true, true}));
      variants.push_back(variant({family, true, false}));
    }
    return client_case_specs(env, "E7", variants);
  };
  info.report.table = e7_table;
  return info;
}

}  // namespace cutover::lab
