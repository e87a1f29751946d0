// E10: health-checked failover end to end. A real `cutover serve` failover pool (FailoverLab)
// answers its primary endpoint; the resolver's cache is filled, the lab kills the primary
// 0.3 s later (t = 0), then asks cutover directly every 50 ms and the pool name through the
// resolver every 100 ms. D = first direct answer with the backup, total = first answer through
// the resolver with the backup, K = total - D. docs/lab.md (E10): D in [(F-1)·I, F·I + T] (a
// refused connect fails at once, so the lower end has no T) and K <= the answer TTL, so the
// total lies in [(F-1)·I, F·I + T + TTL]. The resolver's own schedule predicts the total more
// tightly: one TTL after its last fetch before D (seen as the answer TTL going back up).
#include <algorithm>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "health/detection.h"
#include "lab/experiments/common.h"
#include "lab/failover/failover_lab.h"
#include "lab/failover/observed_terms.h"
#include "lab/probe.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

constexpr double kKillAfterFill = 0.3;  // seconds
constexpr double kDirectStep = 0.05;
constexpr double kClientStep = 0.1;

bool answers(const Observation& observation, const char* address) {
  return observation.rcode == "NOERROR" &&
         std::find(observation.answer.begin(), observation.answer.end(), address) != observation.answer.end();
}

// When the resolver last fetched the pool name before `detection`: the fill, or a later poll
// whose answer TTL went up (a fresh entry). Its entry, still holding the primary, should expire
// one answer TTL later: the schedule's prediction of the total.
double last_fetch_before(const std::vector<Observation>& client, double fill, std::uint32_t fill_ttl,
                         double detection) {
  double fetched = fill;
  std::uint32_t previous = fill_ttl;
  for (const auto& observation : client) {
    if (observation.sent > detection || !observation.ttl || !answers(observation, FailoverLab::kPrimary)) continue;
    if (*observation.ttl > previous) fetched = observation.sent;
    previous = *observation.ttl;
  }
  return fetched;
}

void run_failover(std::uint32_t ttl, CaseContext& context, CaseResult& result) {
  FailoverLab* lab = context.env.fixture<FailoverLab>();
  if (lab == nullptr) throw LabError("the E10 pool server (cutover serve with pools) is not running");
  const FailoverCheck& check = lab->check();
  std::string name = FailoverLab::pool_name(context.env.tag, ttl);
  std::int64_t filled = fill_cache(context, result, name);
  auto fill_answer = result.details["fill"]["answer"].get<std::vector<std::string>>();
  if (std::find(fill_answer.begin(), fill_answer.end(), FailoverLab::kPrimary) == fill_answer.end()) {
    throw LabError("the pool did not answer its primary before the kill");
  }
  std::int64_t kill_at = after(filled, kKillAfterFill);
  double detection_low = (check.fall - 1) * check.interval;
  using Seconds = std::chrono::duration<double>;
  auto formula = health::detection_range(Seconds(check.interval), Seconds(check.timeout), check.fall);
  double detection_high = formula.max.count();
  double window = detection_high + ttl + 10;
  auto is_backup = [](const Observation& observation) { return answers(observation, FailoverLab::kBackup); };

  std::vector<Observation> direct;
  std::thread direct_poll([&] {
    PollPlan plan{name, dns::RRType::A, kill_at, after(kill_at, -0.2), kDirectStep, after(kill_at, detection_high + 5),
                  std::chrono::milliseconds(500)};
    direct = poll_until(lab->dns_address(), plan, is_backup);
  });
  std::vector<Observation> client;
  std::thread client_poll([&] {
    PollPlan plan{name, dns::RRType::A, kill_at, after(filled, kClientStep), kClientStep, after(kill_at, window),
                  std::chrono::milliseconds(1000)};
    client = poll_until(context.resolver.address(), plan, is_backup);
  });
  base::sleep_until(kill_at);
  auto killed = lab->kill_primary(context.env.tag, ttl);
  direct_poll.join();
  client_poll.join();
  if (!killed) throw LabError(killed.error().message);

  result.observations = client;
  result.rule = Rule::kFirstAnswer;
  result.rule_value = FailoverLab::kBackup;
  result.window = window;
  result.expected = {{"D + K", detection_low, detection_high + ttl}};
  nlohmann::json direct_json = nlohmann::json::array();
  for (const auto& observation : direct) direct_json.push_back(to_json(observation));
  auto& details = result.details;
  details["answer_ttl"] = ttl;
  details["check"] = {{"interval", check.interval}, {"timeout", check.timeout}, {"fall", check.fall},
                      {"rise", check.rise}, {"probe", "tcp"}};
  details["kill_at"] = base::seconds_between(kill_at, *killed);
  details["fill_at"] = base::seconds_between(kill_at, filled);
  details["detection_range"] = {detection_low, detection_high};
  details["direct_observations"] = direct_json;
  auto detection = derive_detection(result);
  if (!detection) throw LabError("cutover never answered the backup after the kill");
  details["detection"] = *detection;
  double fetched = last_fetch_before(client, base::seconds_between(kill_at, filled), result.details["fill"]["ttl"].get<std::uint32_t>(),
                                     *detection);
  details["last_fetch_before_detection"] = fetched;
  details["schedule_prediction"] = fetched + ttl;
  CaseResult measured = result;
  measured.measured = derive_measured(result);
  if (auto cache_term = derive_cache_term(measured)) details["cache_term"] = *cache_term;
}


using Json = nlohmann::json;

// The Details cell: D against the formula's range, K, and what the last fetch predicts.
std::string e10_details(const CaseResult& result, const std::string& common) {
  const Json& details = result.details;
  if (!details.contains("detection")) return common;
  const Json& range = details["detection_range"];
  return fmt::format("D {:.3f} s (formula {:g}–{:g}), K {} (TTL {}), last fetch + TTL predicts {:.3f}",
                     details["detection"].get<double>(), range[0].get<double>(), range[1].get<double>(),
                     details.contains("cache_term") ? fmt::format("{:.3f} s", details["cache_term"].get<double>())
                                                    : std::string("not seen"),
                     details.value("answer_ttl", 0), details.value("schedule_prediction", 0.0));
}

// E10: detection D (cutover's own answer changed) and the resolver term K stacked per case.
std::string e10_bars(const RunResults& results) {
  std::string bars;
  int row = 0;
  for (const auto& result : results.cases) {
    if (result.experiment != "E10" || !result.measured || !result.details.contains("detection")) continue;
    double detection = result.details["detection"].get<double>();
    double cache = *result.measured - detection;
    int y = 10 + row++ * 22;
    bars += fmt::format("<text x=\"0\" y=\"{}\">{} {}</text><rect x=\"220\" y=\"{}\" width=\"{:.1f}\" height=\"14\" "
                        "fill=\"#d62728\"/><rect x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"14\" fill=\"#1f77b4\"/>"
                        "<text x=\"{:.1f}\" y=\"{}\">D {:.2f} + K {:.2f} s</text>\n",
                        y + 11, html_escape(result.resolver), html_escape(result.name), y, detection * 40,
                        220 + detection * 40, y, std::max(0.0, cache) * 40, 226 + *result.measured * 40, y + 11,
                        detection, cache);
  }
  if (bars.empty()) return {};
  return fmt::format("<h3>E10 seconds from the kill: detection D (red) and resolver cache K (blue)</h3><svg "
                     "width=\"720\" height=\"{}\" font-size=\"11\" font-family=\"sans-serif\">\n{}</svg>\n",
                     row * 22 + 20, bars);
}

}  // namespace

std::vector<CaseSpec> e10_cases(const LabEnv& env) {
  std::vector<CaseSpec> specs;
  ResolverConfig config;
  config.upstream.kind = Upstream::Kind::kStub;
  config.upstream.zone = FailoverLab::kZone;
  config.upstream.host = "127.0.0.1";
  const auto* lab = env.fixture<FailoverLab>();
  if (lab != nullptr) config.upstream.port = lab->dns_port();
  FailoverCheck check = lab != nullptr ? lab->check() : FailoverCheck{};
  for (std::uint32_t ttl : FailoverLab::kTtls) {
    // One resolver instance for both TTLs: it forwards the pool zone, not the lab zone.
    specs.push_back({"E10", fmt::format("ttl{}-i{:g}-f{}", ttl, check.interval, check.fall), config, "e10",
                     [ttl](CaseContext& context, CaseResult& result) { run_failover(ttl, context, result); }});
  }
  return specs;
}

ExperimentInfo e10_failover_experiment() {
  return {"E10", "Health-checked failover end to end (D + K)", {&failover_fixture()}, e10_cases, {e10_details, e10_bars}};
}

}  // namespace cutover::lab
