// report.html: the report tables plus the inline SVG figure each experiment draws under its
// table (ExperimentReport::figure, in its own file). No scripts, no external files.
#include <algorithm>

#include <fmt/format.h>

#include "lab/report/results_file.h"

namespace cutover::lab {

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

std::string render_html(const RunResults& results) {
  std::string out =
      "<!doctype html><html><head><meta charset=\"utf-8\"><title>cutover lab report</title><style>"
      "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}"
      "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}.fail{background:#fdd}.ns{color:#888}"
      "</style></head><body>\n<h1>cutover lab report</h1>\n";
  out += fmt::format("<p>Started {} UTC, wall time {:.1f} s, lab authority {}.</p>\n<table><tr><th>Resolver</th>"
                     "<th>Version</th><th>Package version</th><th>Status</th></tr>\n",
                     html_escape(results.started), results.wall_seconds, html_escape(results.authority));
  for (const auto& resolver : results.resolvers) {
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       html_escape(resolver.variant.empty() ? resolver.name : resolver.name + " + " + resolver.variant),
                       html_escape(resolver.version), html_escape(resolver.package_version),
                       html_escape(resolver.status));
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
      std::string pass = pass_text(result) + unstable_text(result);
      pass.erase(std::remove(pass.begin(), pass.end(), '*'), pass.end());
      out += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                         "<td>{}</td></tr>\n",
                         css, html_escape(result.resolver), html_escape(result.version), html_escape(result.name),
                         html_escape(result.config), html_escape(expected_text(result)), seconds_text(result.measured),
                         seconds_text(result.delta, true), pass, html_escape(detail_text(result) + spread_text(result)));
    }
    out += "</table>\n";
    const ExperimentInfo* experiment = find_experiment(id);
    if (experiment != nullptr && experiment->report.figure) out += experiment->report.figure(results);
  }
  std::string configurations;
  for (const auto& resolver : results.resolvers) {
    for (const auto& configuration : resolver.configurations) {
      configurations += fmt::format("<details><summary>{} {} {} ({})</summary>\n", html_escape(resolver.name),
                                    html_escape(resolver.variant),
                                    html_escape(configuration.instance), html_escape(configuration.status));
      for (const auto& [name, text] : configuration.files) {
        configurations += fmt::format("<p>{}</p><pre>{}</pre>\n", html_escape(name), html_escape(text));
      }
      configurations += "</details>\n";
    }
  }
  if (!configurations.empty()) out += "<h2>Resolver configurations</h2>\n" + configurations;
  return out + "</body></html>\n";
}

}  // namespace cutover::lab
