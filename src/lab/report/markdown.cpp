// report.md and the comparison of two runs.
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

std::string escape(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c != '\n') {
      out += c;
    }
  }
  return out;
}

std::string key_of(const CaseResult& result) { return result.resolver + "|" + result.experiment + "|" + result.name; }

// The effective configuration of every resolver instance, as the adapter generated it.
std::string configurations_markdown(const RunResults& results) {
  std::string out;
  for (const auto& resolver : results.resolvers) {
    for (const auto& configuration : resolver.configurations) {
      if (out.empty()) out = "\n## Resolver configurations\n\nThe files each resolver instance was started with; each case's `instance` in results.json names one.\n";
      out += fmt::format("\n### {} `{}` ({})\n", resolver.name, configuration.instance, escape(configuration.status));
      for (const auto& [name, text] : configuration.files) {
        out += fmt::format("\n{}:\n\n```\n{}{}```\n", name, text, !text.empty() && text.back() == '\n' ? "" : "\n");
      }
    }
  }
  return out;
}

}  // namespace

std::string render_markdown(const RunResults& results) {
  std::string out = "# cutover lab report\n\n";
  out += fmt::format("Started {} UTC, wall time {:.1f} s, lab authority {}.\n\n", results.started, results.wall_seconds,
                     results.authority);
  out += "| Resolver | Version | Package version | Status |\n|---|---|---|---|\n";
  for (const auto& resolver : results.resolvers) {
    out += fmt::format("| {} | {} | {} | {} |\n", resolver.name, resolver.version.empty() ? "—" : resolver.version,
                       resolver.package_version.empty() ? "—" : escape(resolver.package_version),
                       escape(resolver.status));
  }
  int pass = 0, fail = 0, unsupported = 0, errors = 0;
  for (const auto& result : results.cases) {
    pass += result.verdict == Verdict::kPass;
    fail += result.verdict == Verdict::kFail;
    unsupported += result.verdict == Verdict::kNotSupported;
    errors += result.verdict == Verdict::kError;
  }
  out += fmt::format(
      "\n{} cases: {} inside tolerance, {} outside (findings), {} not supported, {} could not be measured. "
      "Times in seconds; tolerance −1.2 s to +1.5 s of the expected value unless stated; each cache fill at "
      "0.5 s into a wall-clock second.\n",
      results.cases.size(), pass, fail, unsupported, errors);
  for (const auto& [id, title] : experiments_present(results)) {
    out += fmt::format("\n## {}. {}\n\n", id, title);
    out += "| Resolver | Version | Case | Config | Expected | Measured | Delta | Pass | Details |\n";
    out += "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& result : results.cases) {
      if (result.experiment != id) continue;
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", result.resolver,
                         result.version.empty() ? "—" : result.version, result.name, result.config,
                         escape(expected_text(result)), seconds_text(result.measured),
                         seconds_text(result.delta, true), pass_text(result), escape(detail_text(result)));
    }
  }
  out += configurations_markdown(results);
  return out;
}

std::string render_compare(const RunResults& before, const RunResults& after) {
  std::map<std::string, const CaseResult*> old_cases;
  for (const auto& result : before.cases) old_cases[key_of(result)] = &result;
  std::string out = fmt::format("# cutover lab comparison\n\nBefore: {} · After: {}\n\n", before.started, after.started);
  out += "| Resolver | Experiment | Case | Before (version) | After (version) | Change |\n|---|---|---|---|---|---|\n";
  int changed = 0;
  for (const auto& result : after.cases) {
    auto it = old_cases.find(key_of(result));
    std::string change;
    std::string was = "absent";
    if (it == old_cases.end()) {
      change = "new case";
    } else {
      const CaseResult& old = *it->second;
      was = fmt::format("{} {} ({})", seconds_text(old.measured), pass_text(old), old.version);
      if (old.verdict != result.verdict) {
        change = "verdict changed";
      } else if (old.measured && result.measured && std::abs(*old.measured - *result.measured) >= 0.5) {
        change = fmt::format("measured {:+.3f} s", *result.measured - *old.measured);
      }
      old_cases.erase(it);
    }
    if (change.empty()) continue;
    ++changed;
    out += fmt::format("| {} | {} | {} | {} | {} {} ({}) | {} |\n", result.resolver, result.experiment, result.name, was,
                       seconds_text(result.measured), pass_text(result), result.version, change);
  }
  for (const auto& [key, old] : old_cases) {
    ++changed;
    out += fmt::format("| {} | {} | {} | {} {} ({}) | absent | case gone |\n", old->resolver, old->experiment, old->name,
                       seconds_text(old->measured), pass_text(*old), old->version);
  }
  out += fmt::format("\n{} of {} cases differ (a changed verdict, or a measured value 0.5 s or more apart).\n", changed,
                     after.cases.size());
  return out;
}

}  // namespace cutover::lab
