// results.json in and out, writing every report file, and the consistency check.
#include "lab/report/results_file.h"

#include "lab/clients/request_log.h"

#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "lab/experiments/experiment.h"
#include "lab/failover/observed_terms.h"

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

base::Status write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) return base::make_error(base::ErrorCode::kIo, "cannot write " + path);
  return {};
}

bool same(const std::optional<double>& a, const std::optional<double>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || std::abs(*a - *b) < 0.0005;
}

}  // namespace

Json results_to_json(const RunResults& results) {
  Json resolvers = Json::array();
  for (const auto& resolver : results.resolvers) {
    Json configurations = Json::array();
    for (const auto& configuration : resolver.configurations) {
      Json files = Json::array();
      for (const auto& [name, text] : configuration.files) files.push_back({{"name", name}, {"text", text}});
      configurations.push_back(
          {{"instance", configuration.instance}, {"status", configuration.status}, {"files", files}});
    }
    resolvers.push_back({{"name", resolver.name},
                         {"version", resolver.version},
                         {"status", resolver.status},
                         {"package_version", resolver.package_version},
                         {"variant", resolver.variant},
                         {"configurations", configurations}});
  }
  Json cases = Json::array();
  for (const auto& result : results.cases) cases.push_back(to_json(result));
  return Json{{"started", results.started},
              {"wall_seconds", std::round(results.wall_seconds * 10) / 10},
              {"authority", results.authority},
              {"resolvers", resolvers},
              {"cases", cases}};
}

base::Result<RunResults> results_from_json(const Json& json) {
  try {
    RunResults results;
    results.started = json.value("started", "");
    results.wall_seconds = json.value("wall_seconds", 0.0);
    results.authority = json.value("authority", "");
    for (const auto& resolver : json.at("resolvers")) {
      ResolverSummary summary{resolver.at("name").get<std::string>(), resolver.value("version", ""),
                              resolver.value("status", ""), resolver.value("package_version", "")};
      summary.variant = resolver.value("variant", "");
      for (const auto& configuration : resolver.value("configurations", Json::array())) {
        ConfigurationRecord record{configuration.value("instance", ""), configuration.value("status", ""), {}};
        for (const auto& file : configuration.value("files", Json::array())) {
          record.files.emplace_back(file.value("name", ""), file.value("text", ""));
        }
        summary.configurations.push_back(std::move(record));
      }
      results.resolvers.push_back(std::move(summary));
    }
    for (const auto& entry : json.at("cases")) results.cases.push_back(case_from_json(entry));
    return results;
  } catch (const Json::exception& e) {
    return base::make_error(base::ErrorCode::kMalformed, std::string("results.json: ") + e.what());
  }
}

base::Result<RunResults> read_results(const std::string& path) {
  std::ifstream in(path);
  if (!in) return base::make_error(base::ErrorCode::kNotFound, "cannot read " + path);
  Json json = Json::parse(in, nullptr, false);
  if (json.is_discarded()) return base::make_error(base::ErrorCode::kMalformed, path + ": not JSON");
  return results_from_json(json);
}

base::Status write_reports(const RunResults& results, const std::string& dir) {
  auto json = write_file(dir + "/results.json", results_to_json(results).dump(1) + "\n");
  if (!json) return json;
  auto markdown = write_file(dir + "/report.md", render_markdown(results));
  if (!markdown) return markdown;
  return write_file(dir + "/report.html", render_html(results));
}

std::vector<std::string> check_reports(const std::string& dir) {
  std::vector<std::string> problems;
  auto results = read_results(dir + "/results.json");
  if (!results) return {results.error().message};
  std::vector<std::pair<std::string, const CaseResult*>> all;
  for (const auto& stored : results->cases) {
    std::string where = fmt::format("{} {} {}{}", stored.resolver, stored.experiment, stored.name,
                                    stored.variant.empty() ? "" : " [" + stored.variant + "]");
    all.emplace_back(where, &stored);
    for (std::size_t i = 0; i < stored.runs.size(); ++i) {
      all.emplace_back(fmt::format("{} run {}", where, i + 1), &stored.runs[i]);
    }
  }
  for (const auto& [where, case_pointer] : all) {
    const CaseResult& stored = *case_pointer;
    if (stored.verdict == Verdict::kError || stored.verdict == Verdict::kNotSupported) {
      if (!stored.observations.empty() && stored.verdict == Verdict::kNotSupported) {
        problems.push_back(where + ": not supported but has observations");
      }
      continue;
    }
    for (auto& problem : client_log_problems(dir, stored, where)) problems.push_back(problem);
    CaseResult derived = stored;
    judge(derived);
    if (!same(derived.measured, stored.measured)) problems.push_back(where + ": measured does not follow from the observations");
    if (!same(derived.delta, stored.delta)) problems.push_back(where + ": delta does not follow from measured and expected");
    if (derived.verdict != stored.verdict) problems.push_back(where + ": verdict does not follow from delta and tolerance");
    const ExperimentInfo* experiment = find_experiment(stored.experiment);
    if (experiment != nullptr && experiment->report.derive_details) {
      CaseResult rederived = stored;
      experiment->report.derive_details(rederived);
      if (rederived.details != stored.details) {
        problems.push_back(where + ": details (pattern, counts) do not follow from the observations");
      }
    }
    if (stored.details.contains("detection")) {
      if (!same(derive_detection(stored), stored.details["detection"].get<double>())) {
        problems.push_back(where + ": detection does not follow from the direct observations");
      }
      if (stored.details.contains("cache_term") &&
          !same(derive_cache_term(stored), stored.details["cache_term"].get<double>())) {
        problems.push_back(where + ": cache term is not measured minus detection");
      }
    }
  }
  std::ifstream in(dir + "/report.md");
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    problems.push_back("cannot read report.md");
  } else if (text.str() != render_markdown(*results)) {
    problems.push_back("report.md is not what results.json gives");
  }
  return problems;
}

std::string seconds_text(const std::optional<double>& value, bool sign) {
  if (!value) return "—";
  return sign ? fmt::format("{:+.3f}", *value) : fmt::format("{:.3f}", *value);
}

std::string expected_text(const CaseResult& result) {
  std::string out;
  for (const auto& expectation : result.expected) {
    if (!out.empty()) out += " / ";
    if (result.expected.size() > 1) out += expectation.label + " ";
    if (expectation.never) {
      out += "never within the run";
      continue;
    }
    out += expectation.low == expectation.high ? fmt::format("{:g}", expectation.low)
                                               : fmt::format("{:g}–{:g}", expectation.low, expectation.high);
  }
  return out.empty() ? "—" : out;
}

std::string pass_text(const CaseResult& result) {
  switch (result.verdict) {
    case Verdict::kPass: return "yes";
    case Verdict::kFail: return "**no**";
    case Verdict::kNotSupported: return "not supported";
    case Verdict::kError: return "error";
  }
  return "error";
}

std::string detail_text(const CaseResult& result) {
  if (result.verdict == Verdict::kNotSupported || result.verdict == Verdict::kError) {
    return result.note.substr(0, result.note.find('\n'));
  }
  const Json& details = result.details;
  std::string out;
  if (details.contains("fill") && details["fill"].contains("ttl")) {
    out = fmt::format("1st TTL {}", details["fill"]["ttl"].get<std::uint32_t>());
  }
  const ExperimentInfo* experiment = find_experiment(result.experiment);
  if (experiment != nullptr && experiment->report.details) out = experiment->report.details(result, out);
  if (!result.measured) out += (out.empty() ? "" : "; ") + result.note;
  return out;
}

const ExperimentInfo* find_experiment(const std::string& id) {
  for (const auto& experiment : experiments()) {
    if (experiment.id == id) return &experiment;
  }
  return nullptr;
}

std::vector<std::pair<std::string, std::string>> experiments_present(const RunResults& results) {
  std::vector<std::pair<std::string, std::string>> present;
  for (const auto& experiment : experiments()) {
    for (const auto& result : results.cases) {
      if (result.experiment == experiment.id) {
        present.emplace_back(experiment.id, experiment.title);
        break;
      }
    }
  }
  return present;
}

}  // namespace cutover::lab
