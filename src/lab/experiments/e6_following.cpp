// E6: following a change. A record with a 2 s TTL, one request every 0.5 s on a new
// connection (the origins close every connection), the record moved from origin a to origin
// b midway between two request slots about 3.5 s after the client's first request; measured:
// the first request that reached b, seconds after the change, against the resolver's TTL
// plus the runtime's documented cache (docs/lab.md, "E6").
#include <fmt/format.h>

#include "lab/experiments/client_common.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

// Requests run this long past the expected switch, or past the change for a client that
// should never switch (45 s, as the paper's run of networkaddress.cache.ttl=-1).
constexpr double kRunPast = 6;
constexpr double kForeverRun = 45;

ClientCaseSetup e6_setup(const ClientAdapter&) {
  ClientCaseSetup setup;
  setup.origins = {{kOldOrigin, kOriginV4First, 80, OriginBehaviour::kCloseEach},
                   {kNewOrigin, kOriginV4Second, 80, OriginBehaviour::kCloseEach}};
  return setup;
}

void e6_run(ClientCase& world, ClientSuite& suite, const ClientSuite::Client& client, CaseResult& result) {
  std::string name = ClientCase::name("e6");
  need(world.authority().put_rrset(name, "A", kClientTtl, {kOriginV4First}));
  ClientCache cache = client.adapter->cache();
  Expectation expected = following_expectation(cache, kChangeAfterFirst, kClientTtl, kClientInterval);
  double run_seconds = kChangeAfterFirst + (expected.never ? kForeverRun : expected.high + kRunPast);
  ClientInvocation run{"http://" + name.substr(0, name.size() - 1) + "/", kClientInterval,
                       static_cast<int>(run_seconds / kClientInterval) + 1, std::nullopt};
  double first = start_and_wait_first(world, suite, client, run);
  sleep_until_unix(first + kChangeAfterFirst);
  double changed = unix_at(need(world.authority().put_rrset(name, "A", kClientTtl, {kOriginV4Second})));
  world.wait_for_exit(first + run_seconds + 15);
  world.record(result, changed, RequestClock::kStart);
  result.details["record_ttl"] = kClientTtl;
  result.details["change_after_first"] = changed - first;
  result.details["change_unix"] = changed;
  result.expected = {following_expectation(cache, changed - first, kClientTtl, kClientInterval)};
  result.rule = Rule::kFirstAnswer;
  result.rule_value = kNewOrigin;
  result.window = run_seconds - (changed - first);
  derive_following_details(result);
}

std::string e6_table(const RunResults& results) {
  std::string out =
      "Record TTL 2 s, one request every 0.5 s on a new connection, the record moved about 3.5 s after the client's "
      "first request. Seconds after the change; Expected is the resolver's TTL plus one interval, or the rest of the "
      "runtime's own cache counted from its first lookup; tolerance −1.2 s to +1.5 s.\n\n"
      "| Runtime | Version | Setting | Client cache | Expected | Last old | First new | Delta | Reqs | Errs | Pass |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& result : results.cases) {
    if (result.experiment != "E6") continue;
    nlohmann::json following = result.details.value("following", nlohmann::json::object());
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", client_runtime_cell(result),
                       client_version_cell(result), client_setting_cell(result),
                       result.details.value("client_cache", "—"), expected_text(result), seconds_text(last_old_of(result)),
                       first_new_cell(result),
                       seconds_text(result.delta, true), following.value("requests", 0), following.value("errors", 0),
                       client_pass_cell(result));
  }
  return out;
}

}  // namespace

ExperimentInfo e6_following_experiment() {
  ExperimentInfo info;
  info.id = "E6";
  info.title = "Client runtimes following a change (cache term C)";
  info.cases = [](const LabEnv& env) { return client_case_specs(env, "E6", {{"", {e6_setup, e6_run}}}); };
  info.report.table = e6_table;
  info.report.figure = [](const RunResults& results) { return client_timeline_svg(results, "E6", "E6 switch timeline per runtime:"); };
  info.report.derive_details = derive_following_details;
  return info;
}

}  // namespace cutover::lab
