// E11: connection reuse. A client that may keep its connection sends a request every 0.5 s;
// the record (TTL 2 s) moves from origin a to origin b about 3.5 s after its first request;
// measured: the first request that reached b, seconds after the change, under three
// behaviours of the old origin: it keeps the connection open, it closes connections idle for
// 0.3 s (less than the interval, so a client finds its idle connection closed), or it sends
// `Connection: close` on its next response once drained at the change (RFC 9112 §9.6). A
// client that reuses its connection is expected never to leave a kept-open origin within the
// run (R has no bound), unless it retires connections whose address left the answer (the
// reference client); otherwise it follows the change like in E6. The negative half: the
// name answers NXDOMAIN (negative TTL 2 s) until it is repaired about 3.5 s after the first
// request; measured: the first request that succeeded, after the repair, against the
// runtime's own negative cache (docs/lab.md, "E11").
#include <fmt/format.h>

#include "lab/experiments/client_common.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

constexpr double kRunPast = 6;
constexpr double kKeepRun = 15;  // after the change, for a client expected never to move
constexpr double kIdleSeconds = 0.3;

ClientVariant behaviour_variant(const std::string& label, OriginBehaviour behaviour) {
  ClientCaseBody body;
  body.setup = [behaviour](const ClientAdapter&) {
    ClientCaseSetup setup;
    setup.origins = {{kOldOrigin, kOriginV4First, 80, behaviour, kIdleSeconds},
                     {kNewOrigin, kOriginV4Second, 80, behaviour, kIdleSeconds}};
    return setup;
  };
  body.run = [behaviour](ClientCase& world, ClientSuite& suite, const ClientSuite::Client& client, CaseResult& result) {
    std::string name = ClientCase::name("e11");
    need(world.authority().put_rrset(name, "A", kClientTtl, {kOriginV4First}));
    ClientCache cache = client.adapter->cache();
    bool pinned = behaviour == OriginBehaviour::kKeepOpen && client.adapter->reuses_connections() &&
                  !client.adapter->retires_moved_connections();
    auto expectation = [&](double since_first) {
      return pinned ? Expectation{"never within the run (a kept connection)", 0, 0, true}
                    : following_expectation(cache, since_first, kClientTtl, kClientInterval);
    };
    Expectation planned = expectation(kChangeAfterFirst);
    double run_seconds = kChangeAfterFirst + (planned.never ? kKeepRun : planned.high + kRunPast);
    ClientInvocation run{"http://" + name.substr(0, name.size() - 1) + "/", kClientInterval,
                         static_cast<int>(run_seconds / kClientInterval) + 1, std::nullopt};
    double first = start_and_wait_first(world, suite, client, run);
    sleep_until_unix(first + kChangeAfterFirst);
    double changed = unix_at(need(world.authority().put_rrset(name, "A", kClientTtl, {kOriginV4Second})));
    if (behaviour == OriginBehaviour::kDrainClose) world.origin(0).drain();
    world.wait_for_exit(first + run_seconds + 15);
    world.record(result, changed, RequestClock::kStart);
    result.details["origin_behaviour"] = behaviour_text(behaviour);
    result.details["change_after_first"] = changed - first;
    result.details["reuses_connections"] = client.adapter->reuses_connections();
    result.expected = {expectation(changed - first)};
    result.rule = Rule::kFirstAnswer;
    result.rule_value = kNewOrigin;
    result.window = run_seconds - (changed - first);
    derive_following_details(result);
  };
  return {label, body};
}

ClientVariant negative_variant() {
  ClientCaseBody body;
  body.setup = [](const ClientAdapter&) {
    ClientCaseSetup setup;
    setup.origins = {{kOldOrigin, kOriginV4First, 80, OriginBehaviour::kCloseEach}};
    setup.negative_ttl = kClientTtl;
    return setup;
  };
  body.run = [](ClientCase& world, ClientSuite& suite, const ClientSuite::Client& client, CaseResult& result) {
    std::string name = ClientCase::name("e11-negative");
    ClientCache cache = client.adapter->cache();
    Expectation planned = repair_expectation(cache, kChangeAfterFirst, kClientTtl, kClientInterval);
    double run_seconds = kChangeAfterFirst + planned.high + kRunPast;
    ClientInvocation run{"http://" + name.substr(0, name.size() - 1) + "/", kClientInterval,
                         static_cast<int>(run_seconds / kClientInterval) + 1, std::nullopt};
    double first = start_and_wait_first(world, suite, client, run);
    sleep_until_unix(first + kChangeAfterFirst);
    double repaired = unix_at(need(world.authority().put_rrset(name, "A", kClientTtl, {kOriginV4First})));
    world.wait_for_exit(first + run_seconds + 15);
    world.record(result, repaired, RequestClock::kStart);
    result.details["origin_behaviour"] = "NXDOMAIN, then repaired";
    result.details["change_after_first"] = repaired - first;
    result.details["negative_ttl"] = kClientTtl;
    result.expected = {repair_expectation(cache, repaired - first, kClientTtl, kClientInterval)};
    result.rule = Rule::kFirstAnswer;
    result.rule_value = kOldOrigin;
    result.window = run_seconds - (repaired - first);
  };
  return {"negative", body};
}

void e11_derive(CaseResult& result) {
  if (result.details.value("origin_behaviour", "") == "NXDOMAIN, then repaired") return;
  derive_following_details(result);
}

std::string e11_table(const RunResults& results) {
  std::string out =
      "One request every 0.5 s on whatever connection the client keeps; record TTL 2 s moved from a to b about 3.5 s "
      "after the first request (negative: NXDOMAIN with a 2 s negative TTL, then repaired). First new: the first "
      "request that reached b (negative: that succeeded), seconds after the change; Old after: requests that still "
      "reached a after the change. Tolerance −1.2 s to +1.5 s.\n\n"
      "| Runtime | Version | Setting | Origin | Expected | First new | Last old | Old after | Reqs | Errs | Pass |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& result : results.cases) {
    if (result.experiment != "E11") continue;
    nlohmann::json following = result.details.value("following", nlohmann::json::object());
    int requests = static_cast<int>(result.observations.size()), errors = 0;
    for (const auto& observation : result.observations) errors += observation.rcode != "NOERROR";
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", client_runtime_cell(result),
                       client_version_cell(result), client_setting_cell(result),
                       result.details.value("origin_behaviour", "—"), expected_text(result),
                       first_new_cell(result),
                       seconds_text(last_old_of(result)), following.contains("old_after_change") ? following["old_after_change"].dump() : "—",
                       requests, errors, client_pass_cell(result));
  }
  return out;
}

}  // namespace

ExperimentInfo e11_reuse_experiment() {
  ExperimentInfo info;
  info.id = "E11";
  info.title = "Connection reuse after a change (reuse term R) and the client's negative cache";
  info.cases = [](const LabEnv& env) {
    return client_case_specs(env, "E11",
                             {behaviour_variant("keep", OriginBehaviour::kKeepOpen),
                              behaviour_variant("idle", OriginBehaviour::kIdleClose),
                              behaviour_variant("drain", OriginBehaviour::kDrainClose), negative_variant()});
  };
  info.report.table = e11_table;
  info.report.figure = [](const RunResults& results) { return client_timeline_svg(results, "E11", "E11 requests per origin over time:"); };
  info.report.derive_details = e11_derive;
  return info;
}

}  // namespace cutover::lab
