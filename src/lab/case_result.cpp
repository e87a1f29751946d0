// Measured value, delta and verdict from raw observations; JSON form of a case.
#include "lab/case_result.h"

#include <algorithm>
#include <cmath>

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

bool has_answer(const Observation& observation) {
  return observation.rcode == "NOERROR" && !observation.answer.empty();
}

// Rounded to the millisecond: the report prints three decimals, and a re-derivation from
// results.json must give the same digits.
double millis(double seconds) { return std::round(seconds * 1000.0) / 1000.0; }

}  // namespace

ClientView client_view(const Observation& observation, std::optional<double> client_timeout) {
  if (!has_answer(observation)) return ClientView::kFailed;
  // Compared at the microsecond, so a latency read back from results.json classifies the same.
  if (client_timeout && observation.received - observation.sent > *client_timeout + 1e-6) return ClientView::kLate;
  return ClientView::kInTime;
}

char client_letter(ClientView view) {
  switch (view) {
    case ClientView::kInTime: return 'o';
    case ClientView::kLate: return 's';
    case ClientView::kFailed: return 'x';
  }
  return 'x';
}

std::string client_pattern(const std::vector<Observation>& observations, std::optional<double> client_timeout) {
  std::string pattern;
  for (const auto& observation : observations) pattern += client_letter(client_view(observation, client_timeout));
  return pattern;
}

std::string rule_to_text(Rule rule) {
  switch (rule) {
    case Rule::kFirstAnswer: return "first_answer";
    case Rule::kFirstOk: return "first_ok";
    case Rule::kFirstAnswerAfter: return "first_answer_after";
    case Rule::kLastOk: return "last_ok";
  }
  return "first_answer";
}

std::optional<Rule> rule_from_text(const std::string& text) {
  for (Rule rule : {Rule::kFirstAnswer, Rule::kFirstOk, Rule::kLastOk, Rule::kFirstAnswerAfter}) {
    if (rule_to_text(rule) == text) return rule;
  }
  return std::nullopt;
}

std::string verdict_to_text(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass: return "pass";
    case Verdict::kFail: return "fail";
    case Verdict::kNotSupported: return "not supported";
    case Verdict::kError: return "error";
  }
  return "error";
}

std::optional<Verdict> verdict_from_text(const std::string& text) {
  for (Verdict verdict : {Verdict::kPass, Verdict::kFail, Verdict::kNotSupported, Verdict::kError}) {
    if (verdict_to_text(verdict) == text) return verdict;
  }
  return std::nullopt;
}

std::optional<double> derive_measured(const CaseResult& result) {
  std::optional<double> found;
  for (const auto& observation : result.observations) {
    if (client_view(observation, result.client_timeout) != ClientView::kInTime) continue;
    bool match = false;
    switch (result.rule) {
      case Rule::kFirstAnswerAfter:
        if (observation.sent < 0) break;
        [[fallthrough]];
      case Rule::kFirstAnswer:
        match = std::find(observation.answer.begin(), observation.answer.end(), result.rule_value) !=
                    observation.answer.end();
        break;
      case Rule::kFirstOk:
      case Rule::kLastOk: match = has_answer(observation); break;
    }
    if (!match) continue;
    if (result.rule == Rule::kLastOk) {
      if (!found || observation.sent > *found) found = observation.sent;
    } else if (!found || observation.sent < *found) {
      found = observation.sent;
    }
  }
  if (found) found = millis(*found);
  return found;
}

double distance_to(const Expectation& expectation, double measured) {
  if (measured < expectation.low) return measured - expectation.low;
  if (measured > expectation.high) return measured - expectation.high;
  return 0;
}

void judge(CaseResult& result) {
  result.measured = derive_measured(result);
  result.delta.reset();
  result.matched.clear();
  if (!result.measured) {
    result.verdict = Verdict::kFail;
    for (const auto& expectation : result.expected) {
      if (!expectation.never) continue;
      result.verdict = Verdict::kPass;
      result.matched = expectation.label;
    }
    return;
  }
  const Expectation* best = nullptr;
  double best_delta = 0;
  bool only_never = !result.expected.empty();
  for (const auto& expectation : result.expected) only_never = only_never && expectation.never;
  if (only_never) {  // something qualified where nothing should have
    result.verdict = Verdict::kFail;
    return;
  }
  for (const auto& expectation : result.expected) {
    if (expectation.never) continue;
    double delta = distance_to(expectation, *result.measured);
    if (best == nullptr || std::abs(delta) < std::abs(best_delta)) {
      best = &expectation;
      best_delta = delta;
    }
  }
  if (best == nullptr) {
    result.verdict = Verdict::kError;
    return;
  }
  result.delta = millis(best_delta);
  result.matched = best->label;
  bool inside = *result.delta >= result.tolerance.below - 1e-9 && *result.delta <= result.tolerance.above + 1e-9;
  result.verdict = inside ? Verdict::kPass : Verdict::kFail;
}

Spread spread_of(const std::vector<CaseResult>& runs) {
  Spread spread;
  spread.runs = static_cast<int>(runs.size());
  std::vector<double> values;
  for (const auto& run : runs) {
    if (run.measured) values.push_back(*run.measured);
    spread.passed += run.verdict == Verdict::kPass;
    if (run.verdict != runs.front().verdict) spread.unstable = true;
  }
  spread.measured_runs = static_cast<int>(values.size());
  if (values.empty()) return spread;
  std::sort(values.begin(), values.end());
  std::size_t middle = values.size() / 2;
  spread.min = values.front();
  spread.max = values.back();
  spread.median = values.size() % 2 == 1 ? values[middle] : millis((values[middle - 1] + values[middle]) / 2);
  return spread;
}

Json to_json(const Observation& observation) {
  Json entry{{"sent", observation.sent}, {"received", observation.received}, {"rcode", observation.rcode},
             {"answer", observation.answer}};
  entry["ttl"] = observation.ttl ? Json(*observation.ttl) : Json(nullptr);
  return entry;
}

Observation observation_from_json(const Json& json) {
  Observation observation;
  observation.sent = json.at("sent").get<double>();
  observation.received = json.at("received").get<double>();
  observation.rcode = json.at("rcode").get<std::string>();
  observation.answer = json.at("answer").get<std::vector<std::string>>();
  if (!json.at("ttl").is_null()) observation.ttl = json.at("ttl").get<std::uint32_t>();
  return observation;
}

Json to_json(const CaseResult& result) {
  Json expected = Json::array();
  for (const auto& expectation : result.expected) {
    Json entry = {{"label", expectation.label}, {"low", expectation.low}, {"high", expectation.high}};
    if (expectation.never) entry["never"] = true;
    expected.push_back(entry);
  }
  Json observations = Json::array();
  for (const auto& observation : result.observations) observations.push_back(to_json(observation));
  auto optional = [](const std::optional<double>& value) { return value ? Json(*value) : Json(nullptr); };
  Json json{{"resolver", result.resolver},
              {"version", result.version},
              {"experiment", result.experiment},
              {"case", result.name},
              {"config", result.config},
              {"variant", result.variant},
              {"instance", result.instance},
              {"expected", expected},
              {"tolerance", {{"below", result.tolerance.below}, {"above", result.tolerance.above}}},
              {"rule", rule_to_text(result.rule)},
              {"rule_value", result.rule_value},
              {"measured", optional(result.measured)},
              {"delta", optional(result.delta)},
              {"matched", result.matched},
              {"pass", result.verdict == Verdict::kPass},
              {"verdict", verdict_to_text(result.verdict)},
              {"note", result.note},
              {"log_tail", result.log_tail},
              {"fill_phase", result.fill_phase},
              {"window", result.window},
              {"client_timeout", result.client_timeout ? Json(*result.client_timeout) : Json(nullptr)},
              {"details", result.details},
              {"observations", observations}};
  if (!result.runs.empty()) {
    Json runs = Json::array();
    for (const auto& run : result.runs) runs.push_back(to_json(run));
    json["runs"] = runs;
    Spread spread = spread_of(result.runs);
    json["spread"] = {{"runs", spread.runs},     {"measured_runs", spread.measured_runs},
                      {"min", optional(spread.min)}, {"median", optional(spread.median)},
                      {"max", optional(spread.max)}, {"passed", spread.passed},
                      {"unstable", spread.unstable}};
  }
  return json;
}

CaseResult case_from_json(const Json& json) {
  CaseResult result;
  result.resolver = json.at("resolver").get<std::string>();
  result.version = json.value("version", "");
  result.experiment = json.at("experiment").get<std::string>();
  result.name = json.at("case").get<std::string>();
  result.config = json.value("config", "");
  result.variant = json.value("variant", "");
  result.instance = json.value("instance", "");
  for (const auto& entry : json.at("expected")) {
    result.expected.push_back({entry.value("label", ""), entry.at("low").get<double>(), entry.at("high").get<double>(),
                               entry.value("never", false)});
  }
  result.tolerance = {json.at("tolerance").at("below").get<double>(), json.at("tolerance").at("above").get<double>()};
  result.rule = rule_from_text(json.value("rule", "")).value_or(Rule::kFirstAnswer);
  result.rule_value = json.value("rule_value", "");
  if (!json.at("measured").is_null()) result.measured = json.at("measured").get<double>();
  if (!json.at("delta").is_null()) result.delta = json.at("delta").get<double>();
  result.matched = json.value("matched", "");
  result.verdict = verdict_from_text(json.value("verdict", "")).value_or(Verdict::kError);
  result.note = json.value("note", "");
  result.log_tail = json.value("log_tail", "");
  result.fill_phase = json.value("fill_phase", -1.0);
  result.window = json.value("window", 0.0);
  if (json.contains("client_timeout") && !json["client_timeout"].is_null()) {
    result.client_timeout = json["client_timeout"].get<double>();
  }
  result.details = json.value("details", Json::object());
  for (const auto& entry : json.at("observations")) result.observations.push_back(observation_from_json(entry));
  for (const auto& entry : json.value("runs", Json::array())) result.runs.push_back(case_from_json(entry));
  return result;
}

}  // namespace cutover::lab
