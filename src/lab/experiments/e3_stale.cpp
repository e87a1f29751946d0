// E3: serve-stale during an authoritative outage. A 5 s record is filled, the authority stops
// answering for it at once (drop, REFUSED or SERVFAIL), and the resolver is asked once a second
// by free-running polls. Expected last success: the TTL, or TTL + window with serve-stale.
// Each case has a resolver instance of its own: outages change a resolver's view of the server.
#include <fmt/format.h>

#include "base/clock.h"
#include "lab/expectations.h"
#include "lab/experiments/common.h"
#include "lab/probe.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

constexpr std::uint32_t kTtl = 5;
constexpr std::uint32_t kWindow = 15;

// Summary facts of the poll log as a client with the case's client timeout sees it (RFC 8767
// §5): the pattern (o in time, s answered after the timeout, x failed), the first poll that was
// not answered in time, the counts (failed = late + no answer), the stale TTLs of answers in
// time, and the slowest failure. The raw sent/received times stay in the observations.
void summarise(CaseResult& result) {
  int ok = 0;
  int late = 0;
  int failed = 0;
  double slowest_failure = 0;
  nlohmann::json first_failure = nullptr;
  nlohmann::json stale_ttls = nlohmann::json::array();
  for (const auto& observation : result.observations) {
    ClientView view = client_view(observation, result.client_timeout);
    if (view == ClientView::kInTime) {
      ++ok;
      if (observation.sent > kTtl && observation.ttl) stale_ttls.push_back(*observation.ttl);
      continue;
    }
    ++failed;
    if (view == ClientView::kLate) ++late;
    if (first_failure.is_null()) first_failure = std::round(observation.sent * 1000) / 1000;
    slowest_failure = std::max(slowest_failure, observation.received - observation.sent);
  }
  result.details["pattern"] = client_pattern(result.observations, result.client_timeout);
  result.details["ok"] = ok;
  result.details["late"] = late;
  result.details["failed"] = failed;
  result.details["first_failure"] = first_failure;
  result.details["stale_ttls"] = stale_ttls;
  result.details["slowest_failure_ms"] = std::round(slowest_failure * 1000);
}

void run_outage(const std::string& mode, bool stale, const std::string& label, CaseContext& context,
                CaseResult& result) {
  std::string name = context.name("e3-" + label);
  auto& authority = *context.env.authority;
  need(authority.put_rrset(name, "A", kTtl, {kOldAddress}));
  std::int64_t filled = fill_cache(context, result, name);
  std::int64_t outage = need(authority.set_outage("name", name, mode));
  result.details["outage"] = mode;
  result.details["outage_at"] = base::seconds_between(filled, outage);
  double expected = last_answer(kTtl, stale ? std::optional<std::uint32_t>(kWindow) : std::nullopt);
  result.expected = {point(stale ? "TTL + window" : "TTL", expected)};
  double window = expected + 8;
  PollPlan plan{name, dns::RRType::A, filled, after(filled, 1), 1.0, after(filled, window), std::chrono::milliseconds(12000)};
  result.observations = poll_every(context.resolver.address(), plan);
  result.rule = Rule::kLastOk;
  result.window = window;
  record_authority_count(context, result, name, "A", "authority_queries");
  need(authority.set_outage("name", name, "none"));
  summarise(result);
}


using Json = nlohmann::json;

// The Details cell: first failure, answered and failed polls, stale TTLs, the poll pattern.
std::string e3_details(const CaseResult& result, const std::string&) {
  const Json& details = result.details;
  std::string stale;
  for (const auto& ttl : details.value("stale_ttls", Json::array())) {
    if (stale.find(std::to_string(ttl.get<int>())) == std::string::npos) stale += (stale.empty() ? "" : ",") + std::to_string(ttl.get<int>());
  }
  int late = details.value("late", 0);
  return fmt::format("1st fail {}, ok/fail {}/{}{}, stale TTL {}, polls {}",
                     details.value("first_failure", Json()).is_null() ? std::string("none")
                                                                     : fmt::format("{:.2f}", details["first_failure"].get<double>()),
                     details.value("ok", 0), details.value("failed", 0),
                     late > 0 ? fmt::format(" ({} late)", late) : std::string(), stale.empty() ? "none" : stale,
                     details.value("pattern", ""));
}

// One row per E3 case: a dot per poll at its send time, green answered in time, orange
// answered after the client timeout, red failed; the
// dashed line is the expected last success.
std::string e3_timeline(const RunResults& results) {
  std::vector<const CaseResult*> rows;
  for (const auto& result : results.cases) {
    if (result.experiment == "E3" && !result.observations.empty()) rows.push_back(&result);
  }
  if (rows.empty()) return {};
  const double scale = 20;  // pixels per second
  const int left = 260, row_height = 18, width = left + static_cast<int>(30 * scale) + 20;
  int height = static_cast<int>(rows.size()) * row_height + 30;
  std::string svg = fmt::format("<h3>E3 poll timelines</h3><svg width=\"{}\" height=\"{}\" font-size=\"11\" "
                                "font-family=\"sans-serif\">\n",
                                width, height);
  for (int second = 0; second <= 30; second += 5) {
    int x = left + static_cast<int>(second * scale);
    svg += fmt::format("<line x1=\"{0}\" y1=\"0\" x2=\"{0}\" y2=\"{1}\" stroke=\"#ddd\"/><text x=\"{0}\" y=\"{2}\">{3} s</text>\n",
                       x, height - 18, height - 4, second);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const CaseResult& row = *rows[i];
    int y = static_cast<int>(i) * row_height + 12;
    svg += fmt::format("<text x=\"0\" y=\"{}\">{} {}</text>\n", y + 4, html_escape(row.resolver), html_escape(row.name));
    if (!row.expected.empty()) {
      int x = left + static_cast<int>(row.expected.front().low * scale);
      svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#333\" stroke-dasharray=\"2,2\"/>\n",
                         x, y - 7, y + 7);
    }
    for (const auto& observation : row.observations) {
      ClientView view = client_view(observation, row.client_timeout);
      const char* colour = view == ClientView::kInTime ? "#2a2" : view == ClientView::kLate ? "#e90" : "#d33";
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"><title>{:.2f} s {} after {:.2f} s</title></circle>\n",
                         left + static_cast<int>(observation.sent * scale), y, colour, observation.sent,
                         observation.rcode, observation.received - observation.sent);
    }
  }
  return svg + "</svg>\n";
}

}  // namespace

std::vector<CaseSpec> e3_cases(const LabEnv&) {
  std::vector<CaseSpec> specs;
  for (const char* mode : {"drop", "refuse", "servfail"}) {
    for (bool stale : {false, true}) {
      std::string label = std::string(mode) + (stale ? "-stale15" : "-default");
      CacheSettings cache;
      if (stale) cache.stale_window = kWindow;
      specs.push_back({"E3", label, {cache, {}}, label, [mode = std::string(mode), stale, label](CaseContext& context,
                                                                                                CaseResult& result) {
                         run_outage(mode, stale, label, context, result);
                       }});
    }
  }
  return specs;
}

ExperimentInfo e3_stale_experiment() { return {"E3", "Serve-stale during an authoritative outage", {}, e3_cases, {e3_details, e3_timeline, summarise}}; }

}  // namespace cutover::lab
