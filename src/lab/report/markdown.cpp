// report.md and the comparison of two runs.
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "lab/report/results_file.h"

namespace cutover::lab {
namespace {

std::string escape(std::string_view text) { return markdown_cell(text); }

std::string key_of(const CaseResult& result) {
  return result.resolver + "|" + result.experiment + "|" + result.name + "|" + result.variant;
}

std::string resolver_label(const std::string& name, const std::string& variant) {
  return variant.empty() ? name : name + " + `" + variant + "`";
}

// A number field of an introspection entry as JSON writes it ("?" when it is missing).
std::string number_text(const nlohmann::json& item, const char* key) {
  return item.contains(key) && !item[key].is_null() ? item[key].dump() : "?";
}

// One case's introspection as one line: its cache entries and failure/negative messages.
std::string introspection_line(const nlohmann::json& state) {
  std::string out;
  for (const auto& rrset : state.value("rrsets", nlohmann::json::array())) {
    std::string data;
    for (const auto& item : rrset.value("data", nlohmann::json::array())) data += " " + item.get<std::string>();
    out += fmt::format("{}{} {}{} TTL {} ({})", out.empty() ? "" : "; ", rrset.value("name", ""), rrset.value("type", ""),
                       data, number_text(rrset, "ttl"), rrset.value("trust_name", ""));
  }
  for (const auto& message : state.value("messages", nlohmann::json::array())) {
    out += fmt::format("{}message {} {} {} TTL {}", out.empty() ? "" : "; ", message.value("name", ""),
                       message.value("type", ""), message.value("rcode", ""), number_text(message, "ttl"));
  }
  for (const auto& packet : state.value("packet_cache", nlohmann::json::array())) {
    out += fmt::format("{}packet cache {} {} TTL {}", out.empty() ? "" : "; ", packet.value("name", ""),
                       packet.value("type", ""), number_text(packet, "ttl"));
  }
  for (const auto& server : state.value("infra", nlohmann::json::array())) {
    out += fmt::format("{}server {} rtt {} ms", out.empty() ? "" : "; ", server.value("address", ""),
                       number_text(server, "rtt"));
  }
  nlohmann::json settings = state.value("settings", nlohmann::json::object());
  for (const auto& [name, value] : settings.items()) {
    out += fmt::format("{}{} {}", out.empty() ? "" : "; ", name, value.dump());
  }
  return out.empty() ? "nothing cached for the case's names" : out;
}

// The resolver state read after each case of experiment `id`, where the adapter could read it.
std::string introspection_markdown(const RunResults& results, const std::string& id) {
  std::string out;
  for (const auto& result : results.cases) {
    if (result.experiment != id) continue;
    for (const char* key : {"introspection_at_move", "introspection_at_heal", "introspection"}) {
      if (!result.details.contains(key)) continue;
      const auto& state = result.details[key];
      if (!state.value("available", false)) continue;
      if (out.empty()) out = "\nWhat the resolver held (remaining TTL, trust), after each case, for E8 also at the move and for E9 at the heal:\n\n";
      out += fmt::format("- {} {}{}{}: {}\n", result.resolver, result.name,
                         result.variant.empty() ? "" : " [" + result.variant + "]",
                         std::string(key) == "introspection" ? "" : std::string(key) == "introspection_at_move" ? " at the move" : " at the heal", escape(introspection_line(state)));
    }
  }
  return out;
}

// The effective configuration of every resolver instance, as the adapter generated it.
std::string configurations_markdown(const RunResults& results) {
  std::string out;
  for (const auto& resolver : results.resolvers) {
    for (const auto& configuration : resolver.configurations) {
      if (out.empty()) out = "\n## Resolver configurations\n\nThe files each resolver instance was started with; each case's `instance` in results.json names one.\n";
      out += fmt::format("\n### {} `{}` ({})\n", resolver_label(resolver.name, resolver.variant),
                         configuration.instance, escape(configuration.status));
      for (const auto& [name, text] : configuration.files) {
        out += fmt::format("\n{}:\n\n```\n{}{}```\n", name, text, !text.empty() && text.back() == '\n' ? "" : "\n");
      }
    }
  }
  return out;
}

}  // namespace

std::string spread_text(const CaseResult& result) {
  if (result.runs.empty()) return {};
  Spread spread = spread_of(result.runs);
  std::string out = fmt::format("; {} runs", spread.runs);
  if (spread.min) {
    out += fmt::format(": min/median/max {}/{}/{}", seconds_text(spread.min), seconds_text(spread.median),
                       seconds_text(spread.max));
    if (spread.measured_runs < spread.runs) out += fmt::format(" ({} measured)", spread.measured_runs);
  }
  return out + fmt::format(", {} pass", spread.passed);
}

std::string unstable_text(const CaseResult& result) {
  return !result.runs.empty() && spread_of(result.runs).unstable ? ", **unstable**" : "";
}

std::string render_markdown(const RunResults& results) {
  std::string out = "# cutover lab report\n\n";
  out += fmt::format("Started {} UTC, wall time {:.1f} s, lab authority {}.\n\n", results.started, results.wall_seconds,
                     results.authority);
  out += "| Resolver | Version | Package version | Status |\n|---|---|---|---|\n";
  for (const auto& resolver : results.resolvers) {
    out += fmt::format("| {} | {} | {} | {} |\n", escape(resolver_label(resolver.name, resolver.variant)),
                       resolver.version.empty() ? "—" : resolver.version,
                       resolver.package_version.empty() ? "—" : escape(resolver.package_version),
                       escape(resolver.status));
  }
  int pass = 0, fail = 0, unsupported = 0, errors = 0, repeated = 0, unstable = 0;
  for (const auto& result : results.cases) {
    if (!result.runs.empty()) {
      ++repeated;
      unstable += spread_of(result.runs).unstable;
    }
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
  if (repeated > 0) {
    out += fmt::format(
        "Every case ran {} times; Measured, Delta and Pass are the first run's, Details gives min/median/max of "
        "the measured value over the runs; {} of {} cases are **unstable** (their verdict differs between runs), "
        "{} agree in every run.\n",
        results.cases.front().runs.size(), unstable, repeated, repeated - unstable);
  }
  for (const auto& [id, title] : experiments_present(results)) {
    out += fmt::format("\n## {}. {}\n\n", id, title);
    const ExperimentInfo* experiment = find_experiment(id);
    if (experiment != nullptr && experiment->report.table) {
      out += experiment->report.table(results);
      continue;
    }
    out += "| Resolver | Version | Case | Config | Expected | Measured | Delta | Pass | Details |\n";
    out += "|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& result : results.cases) {
      if (result.experiment != id) continue;
      out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", result.resolver,
                         result.version.empty() ? "—" : result.version, result.name, escape(result.config),
                         escape(expected_text(result)), seconds_text(result.measured),
                         seconds_text(result.delta, true), pass_text(result) + unstable_text(result),
                         escape(detail_text(result) + spread_text(result)));
    }
    out += introspection_markdown(results, id);
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

std::string markdown_cell(std::string_view text) {
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

}  // namespace cutover::lab
