// E15: search lists. The namespace's resolv.conf names three search domains and `options
// ndots:5` (the default of a Kubernetes pod); the client makes one request to a short name
// (found under the first search domain), to a name with fewer than five dots (found only as
// itself, so every search domain is tried first: resolv.conf(5), "ndots") and to the same
// name fully qualified with its trailing dot (no search at all). Counted: the queries that
// reached the lab authority for that one lookup, by type, and how many of them were for
// names that do not exist (each an NXDOMAIN); timed: the request from its start until its
// outcome, whose difference from the fully qualified case is the time the search added.
// The verdict is only that the request succeeded within a second; the counts are the
// finding, against what resolv.conf(5) describes for A and AAAA lookups (docs/lab.md, "E15").
#include <algorithm>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "lab/experiments/client_common.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

constexpr const char* kSearch = "search s1.cutover-lab s2.cutover-lab s3.cutover-lab";
constexpr const char* kOptions = "options ndots:5";
constexpr int kSearchDomains = 3;
constexpr const char* kShortTarget = "web.s1.cutover-lab.";
constexpr const char* kDottedTarget = "www.app.cutover-lab.";
constexpr double kLookupHigh = 1.0;

struct Form {
  std::string label;  // the case name suffix
  std::string host;   // as the URL names it
  int expected_queries = 0;  // A and AAAA per name tried (resolv.conf(5))
};

Json counts_json(const std::vector<AuthorityProcess::QueryCount>& counts) {
  Json out = Json::array();
  for (const auto& count : counts) out.push_back({{"name", count.name}, {"type", count.type}, {"count", count.count}});
  return out;
}

// The queries between the two snapshots of the authority's counts, and their totals
// (ExperimentReport::derive_details, so `lab check` re-derives them).
void e15_derive(CaseResult& result) {
  Json& details = result.details;
  if (!details.contains("authority_counts_after")) return;
  std::map<std::pair<std::string, std::string>, std::uint64_t> before;
  for (const auto& entry : details["authority_counts_before"]) {
    before[{entry["name"].get<std::string>(), entry["type"].get<std::string>()}] = entry["count"].get<std::uint64_t>();
  }
  std::vector<std::string> in_zone = details["names_in_zone"].get<std::vector<std::string>>();
  Json queries = Json::array();
  int total = 0, a = 0, aaaa = 0, other = 0, nxdomain = 0;
  for (const auto& entry : details["authority_counts_after"]) {
    std::string name = entry["name"].get<std::string>(), type = entry["type"].get<std::string>();
    auto it = before.find({name, type});
    int added = static_cast<int>(entry["count"].get<std::uint64_t>() - (it == before.end() ? 0 : it->second));
    if (added <= 0) continue;
    queries.push_back({{"name", name}, {"type", type}, {"count", added}});
    total += added;
    (type == "A" ? a : type == "AAAA" ? aaaa : other) += added;
    if (std::find(in_zone.begin(), in_zone.end(), name) == in_zone.end()) nxdomain += added;
  }
  details["queries"] = queries;
  details["totals"] = {{"queries", total}, {"A", a}, {"AAAA", aaaa}, {"other", other}, {"nxdomain", nxdomain}};
}

ClientVariant search_variant(const Form& form) {
  ClientCaseBody body;
  body.setup = [](const ClientAdapter&) {
    ClientCaseSetup setup;
    setup.origins = {{kOldOrigin, kOriginV4First, 80, OriginBehaviour::kCloseEach}};
    setup.resolv_conf_lines = {kSearch, kOptions};
    return setup;
  };
  body.run = [form](ClientCase& world, ClientSuite& suite, const ClientSuite::Client& client, CaseResult& result) {
    for (const char* target : {kShortTarget, kDottedTarget}) {
      need(world.authority().put_rrset(target, "A", 30, {kOriginV4First}));
    }
    auto before = need(world.authority().counts());
    ClientInvocation run{"http://" + form.host + "/", 1, 1, std::nullopt};
    double started = unix_now();
    auto launched = world.start_client(*client.adapter, suite.paths(), run);
    if (!launched) throw LabError(launched.error().message);
    world.wait_for_lines(1, started + 20);
    world.release_start_gate();
    world.wait_for_exit(started + 20);
    double reference = started;
    if (!world.lines().empty()) {
      auto first = parse_request_line(world.lines().front());
      if (first) reference = first->t;
    }
    world.record(result, reference, RequestClock::kOutcome);
    // A query still on its way through the resolver would be counted late: the request's
    // outcome came after its lookup, so only stragglers of a failed lookup can be missing.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto after = need(world.authority().counts());
    auto& details = result.details;
    details["host"] = form.host;
    details["resolv_conf"] = std::string(kSearch) + "; " + kOptions;
    details["names_in_zone"] = {kShortTarget, kDottedTarget};
    details["expected_queries"] = form.expected_queries;
    details["authority_counts_before"] = counts_json(before);
    details["authority_counts_after"] = counts_json(after);
    result.expected = {{"one lookup on loopback", 0, kLookupHigh}};
    result.rule = Rule::kFirstOk;
    result.window = 20;
    e15_derive(result);
  };
  return {form.label, body};
}

std::string e15_table(const RunResults& results) {
  std::string out = fmt::format(
      "resolv.conf `{}` and `{}`; one request per case. Queries: what reached the lab authority for that lookup "
      "(A/AAAA), NXDOMAIN: those for names that do not exist (one per search domain tried and type); Expected "
      "queries: A and AAAA for every name resolv.conf(5) says is tried. Time: the request from its start until its "
      "outcome; Added: minus the same client's fully qualified case. Pass: the request succeeded within {} s "
      "(tolerance −1.2 s to +1.5 s).\n\n"
      "| Runtime | Version | Setting | Name | Queries | A/AAAA | NXDOMAIN | Expected queries | Names asked | Time | Added | "
      "Pass |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
      kSearch, kOptions, kLookupHigh);
  std::map<std::string, double> fqdn_time;
  for (const auto& result : results.cases) {
    if (result.experiment == "E15" && result.measured && result.details.value("host", "").ends_with(".")) {
      fqdn_time[result.details.value("client", "")] = *result.measured;
    }
  }
  for (const auto& result : results.cases) {
    if (result.experiment != "E15") continue;
    const Json& details = result.details;
    Json totals = details.value("totals", Json::object());
    std::string asked;
    for (const auto& query : details.value("queries", Json::array())) {
      if (!asked.empty()) asked += ", ";
      asked += fmt::format("{} {}", query["name"].get<std::string>(), query["type"].get<std::string>());
      if (query["count"].get<int>() > 1) asked += fmt::format(" ×{}", query["count"].get<int>());
    }
    std::optional<double> added;
    auto fqdn = fqdn_time.find(details.value("client", ""));
    if (result.measured && fqdn != fqdn_time.end()) added = *result.measured - fqdn->second;
    bool counted = totals.contains("queries");
    out += fmt::format("| {} | {} | {} | `{}` | {} | {} | {} | {} | {} | {} | {} | {} |\n", client_runtime_cell(result),
                       client_version_cell(result), client_setting_cell(result), details.value("host", "—"),
                       counted ? std::to_string(totals["queries"].get<int>()) : "—",
                       counted ? fmt::format("{}/{}", totals["A"].get<int>(), totals["AAAA"].get<int>()) : "—",
                       counted ? std::to_string(totals["nxdomain"].get<int>()) : "—",
                       details.value("expected_queries", 0), markdown_cell(asked.empty() ? "—" : asked),
                       seconds_text(result.measured), seconds_text(added, true), client_pass_cell(result));
  }
  return out;
}

}  // namespace

ExperimentInfo e15_search_experiment() {
  ExperimentInfo info;
  info.id = "E15";
  info.title = "Search lists and ndots: queries per lookup";
  info.cases = [](const LabEnv& env) {
    // web: 0 dots, found under the first domain (its A and AAAA); www.app.cutover-lab: 2
    // dots < 5, so the three domains first (NXDOMAIN each), then the name itself; with the
    // trailing dot only the name itself.
    return client_case_specs(env, "E15",
                             {search_variant({"short", "web", 2}),
                              search_variant({"dots", "www.app.cutover-lab", 2 * (kSearchDomains + 1)}),
                              search_variant({"fqdn", "www.app.cutover-lab.", 2})});
  };
  info.report.table = e15_table;
  info.report.derive_details = e15_derive;
  return info;
}

}  // namespace cutover::lab
