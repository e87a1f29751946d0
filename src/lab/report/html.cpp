// report.html: the report tables plus inline SVG figures (E3 poll timelines, E4 measured vs
// expected by flip phase, E8 switch times, E10 D and K per case). No scripts, no external files.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// One row per E3 case: a dot per poll at its send time, green answered, red failed; the
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
      bool answered = observation.rcode == "NOERROR" && !observation.answer.empty();
      svg += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"{}\"><title>{:.2f} s {}</title></circle>\n",
                         left + static_cast<int>(observation.sent * scale), y, answered ? "#2a2" : "#d33",
                         observation.sent, observation.rcode);
    }
  }
  return svg + "</svg>\n";
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

// Seconds until each resolver used the new delegation, against the parent and child NS TTLs.
std::string e8_bars(const RunResults& results) {
  std::string bars;
  int row = 0;
  for (const auto& result : results.cases) {
    if (result.experiment != "E8" || !result.measured) continue;
    int y = 10 + row++ * 22;
    bars += fmt::format("<text x=\"0\" y=\"{}\">{} {}</text><rect x=\"220\" y=\"{}\" width=\"{:.1f}\" height=\"14\" "
                        "fill=\"#1f77b4\"/><text x=\"{:.1f}\" y=\"{}\">{:.1f} s ({})</text>\n",
                        y + 11, html_escape(result.resolver), html_escape(result.name), y, *result.measured * 8,
                        226 + *result.measured * 8, y + 11, *result.measured, html_escape(result.matched));
  }
  if (bars.empty()) return {};
  return fmt::format("<h3>E8 seconds until the new delegation was used</h3><svg width=\"620\" height=\"{}\" "
                     "font-size=\"11\" font-family=\"sans-serif\">\n{}</svg>\n",
                     row * 22 + 20, bars);
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

std::string render_html(const RunResults& results) {
  std::string out =
      "<!doctype html><html><head><meta charset=\"utf-8\"><title>cutover lab report</title><style>"
      "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}"
      "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}.fail{background:#fdd}.ns{color:#888}"
      "</style></head><body>\n<h1>cutover lab report</h1>\n";
  out += fmt::format("<p>Started {} UTC, wall time {:.1f} s, lab authority {}.</p>\n<table><tr><th>Resolver</th>"
                     "<th>Version</th><th>Status</th></tr>\n",
                     html_escape(results.started), results.wall_seconds, html_escape(results.authority));
  for (const auto& resolver : results.resolvers) {
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", html_escape(resolver.name),
                       html_escape(resolver.version), html_escape(resolver.status));
  }
  out += "</table>\n";
  for (const auto& [id, title] : experiments_present(results)) {
    out += fmt::format("<h2>{}. {}</h2>\n<table><tr><th>Resolver</th><th>Version</th><th>Case</th><th>Config</th>"
                       "<th>Expected</th><th>Measured</th><th>Delta</th><th>Pass</th><th>Details</th></tr>\n",
                       id, html_escape(title));
    for (const auto& result : results.cases) {
      if (result.experiment != id) continue;
      const char* css = result.verdict == Verdict::kFail ? " class=\"fail\""
                        : result.verdict == Verdict::kPass ? ""
                                                           : " class=\"ns\"";
      std::string pass = pass_text(result);
      pass.erase(std::remove(pass.begin(), pass.end(), '*'), pass.end());
      out += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                         "<td>{}</td></tr>\n",
                         css, html_escape(result.resolver), html_escape(result.version), html_escape(result.name),
                         html_escape(result.config), html_escape(expected_text(result)), seconds_text(result.measured),
                         seconds_text(result.delta, true), pass, html_escape(detail_text(result)));
    }
    out += "</table>\n";
    if (id == "E3") out += e3_timeline(results);
    if (id == "E4") out += e4_scatter(results);
    if (id == "E8") out += e8_bars(results);
    if (id == "E10") out += e10_bars(results);
  }
  return out + "</body></html>\n";
}

}  // namespace cutover::lab
