// E4: cutover after a flip. The cache is filled, the record flipped at 10, 50 or 90 % of its
// TTL, and the time until the new address shows is compared with K = TTL - (flip - fill).
#include <fmt/format.h>

#include "base/clock.h"
#include "lab/expectations.h"
#include "lab/experiments/common.h"
#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

using Json = nlohmann::json;

// The Details cell: the common text and when the flip came after the fill.
std::string e4_details(const CaseResult& result, const std::string& common) {
  if (!result.details.contains("flip_after_fill")) return common;
  return common + fmt::format(", flip {:.2f} s after fill", result.details["flip_after_fill"].get<double>());
}

// Measured against expected cutover for every E4 case; colour by flip phase.
std::string e4_scatter(const RunResults& results) {
  const std::map<int, const char*> colours = {{0, "#555"}, {10, "#1f77b4"}, {50, "#ff7f0e"}, {90, "#2ca02c"}};
  std::string points;
  for (const auto& result : results.cases) {
    if (result.experiment != "E4" || !result.measured || result.expected.empty()) continue;
    int phase = static_cast<int>(result.details.value("flip_phase", 0.0) * 100 + 0.5);
    auto colour = colours.count(phase) ? colours.at(phase) : "#000";
    double x = 40 + result.expected.front().low * 25, y = 340 - *result.measured * 25;
    points += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\"><title>{} {}: expected {:g}, measured "
                          "{:.3f}</title></circle>\n",
                          x, y, colour, html_escape(result.resolver), html_escape(result.name),
                          result.expected.front().low, *result.measured);
  }
  if (points.empty()) return {};
  std::string svg = "<h3>E4 measured vs expected cutover (s), by flip phase: grey 0 TTL, blue 10 %, orange 50 %, "
                    "green 90 %; the band is the tolerance</h3><svg width=\"420\" height=\"370\" font-size=\"11\" "
                    "font-family=\"sans-serif\">\n";
  svg += "<polygon points=\"40,302.5 340,2.5 340,70 40,370\" fill=\"#e8f0ff\"/>\n";
  svg += "<line x1=\"40\" y1=\"340\" x2=\"340\" y2=\"40\" stroke=\"#999\"/>\n";
  svg += "<line x1=\"40\" y1=\"340\" x2=\"400\" y2=\"340\" stroke=\"#333\"/><line x1=\"40\" y1=\"340\" x2=\"40\" y2=\"0\" "
         "stroke=\"#333\"/>\n";
  for (int second = 0; second <= 12; second += 3) {
    svg += fmt::format("<text x=\"{}\" y=\"355\">{}</text><text x=\"20\" y=\"{}\">{}</text>\n", 40 + second * 25, second,
                       343 - second * 25, second);
  }
  return svg + points + "</svg>\n";
}

}  // namespace

std::vector<CaseSpec> e4_cases(const LabEnv&) {
  struct Row {
    std::uint32_t ttl;
    double phase;
  };
  std::vector<Row> rows = {{0, 0.0}};
  for (std::uint32_t ttl : {3U, 6U, 12U}) {
    for (double phase : {0.1, 0.5, 0.9}) rows.push_back({ttl, phase});
  }
  std::vector<CaseSpec> specs;
  for (const Row& row : rows) {
    std::string label = "ttl" + std::to_string(row.ttl) + "-flip" + std::to_string(static_cast<int>(row.phase * 100));
    CaseSpec spec{"E4", label, {}, "", nullptr};
    spec.run = [row, label](CaseContext& context, CaseResult& result) {
      std::string name = context.name("e4-" + label);
      need(context.env.authority->put_rrset(name, "A", row.ttl, {kOldAddress}));
      std::int64_t filled = fill_cache(context, result, name);
      base::sleep_until(after(filled, row.phase * row.ttl));
      std::int64_t flipped = need(context.env.authority->put_rrset(name, "A", row.ttl, {kNewAddress}));
      double since_fill = base::seconds_between(filled, flipped);
      double expected = remaining_ttl(row.ttl, since_fill);
      result.details["record_ttl"] = row.ttl;
      result.details["flip_phase"] = row.phase;
      result.details["flip_after_fill"] = since_fill;
      result.expected = {point("TTL - (flip - fill)", expected)};
      watch_for_address(context, result, name, kNewAddress, flipped, flipped, 0.1, after(flipped, expected + 10));
      record_authority_count(context, result, name, "A", "authority_queries");
    };
    specs.push_back(std::move(spec));
  }
  return specs;
}

ExperimentInfo e4_flip_experiment() { return {"E4", "Cutover after a record flip (cache term K)", {}, e4_cases, {e4_details, e4_scatter}}; }

}  // namespace cutover::lab
