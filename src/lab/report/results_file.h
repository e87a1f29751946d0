// The lab's output files: results.json (every case with its raw observations), report.md (one
// table per experiment, laid out like the comparison in docs/lab-results.md), report.html (the same tables with
// SVG figures), the comparison of two runs, and the consistency check that re-derives every
// measured value and the whole report.md from results.json. Pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "lab/experiments/experiment.h"
#include "lab/runner.h"

namespace cutover::lab {

nlohmann::json results_to_json(const RunResults& results);
base::Result<RunResults> results_from_json(const nlohmann::json& json);
base::Result<RunResults> read_results(const std::string& path);

std::string render_markdown(const RunResults& results);
// A text as one markdown table cell: `|` escaped, line breaks dropped.
std::string markdown_cell(std::string_view text);
std::string render_html(const RunResults& results);
// Differences between two runs (e.g. two resolver versions), as markdown.
std::string render_compare(const RunResults& before, const RunResults& after);

// Writes results.json, report.md and report.html into `dir`.
base::Status write_reports(const RunResults& results, const std::string& dir);

// Problems found when results.json and report.md in `dir` are not what the raw observations
// give: empty when consistent.
std::vector<std::string> check_reports(const std::string& dir);

// Shared cell texts of the tables.
std::string expected_text(const CaseResult& result);
std::string seconds_text(const std::optional<double>& value, bool sign = false);
std::string pass_text(const CaseResult& result);
std::string detail_text(const CaseResult& result);
// "; N runs: min/median/max A/B/C, K pass" for a repeated case, "" otherwise.
std::string spread_text(const CaseResult& result);
// ", **unstable**" when a repeated case's verdict differs between its runs, "" otherwise.
std::string unstable_text(const CaseResult& result);
// Text made safe inside HTML elements and attribute values, for the figures.
std::string html_escape(const std::string& text);
// The registered experiment `id`, nullptr when there is none.
const ExperimentInfo* find_experiment(const std::string& id);
// Experiment ids in report order, with their titles, for those present in `results`.
std::vector<std::pair<std::string, std::string>> experiments_present(const RunResults& results);

}  // namespace cutover::lab
