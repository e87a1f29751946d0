// `cutover lint ZONEFILE [--origin NAME]`: TTL policy and delegation traps of a master file as findings.
// Exit 0 clean (or notes only), 1 warnings or errors found, 2 could not run (bad origin,
// unreadable file or config). --json is --format json.
#include <filesystem>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "cmd/output.h"
#include "tools/report/zone_origin.h"
#include "tools/lint/lint.h"
#include "tools/lint/lint_output.h"

namespace cutover::cmd {
namespace {

struct LintOptions {
  std::string origin;
  std::string file;
  std::string config;
  std::string format = "text";
  std::vector<std::string> pools;
  bool list_rules = false;
  Output output{"lint"};
};

// Without --origin the file name says it: "example.test.zone" or "db.example.test" -> example.test.
ExitCode run_lint(LintOptions& options) {
  Output& output = options.output;
  // --format json and --json are one mode; --json with another --format is a contradiction.
  if (output.json() && options.format != "text" && options.format != "json") {
    output.fail(ExitCode::kCouldNotRun, "--json prints JSON; it cannot be combined with --format " + options.format);
  }
  if (options.format == "json") output.set_json(true);
  auto fail = [&](const std::string& message) { output.fail(ExitCode::kCouldNotRun, message); };
  if (options.list_rules) {
    nlohmann::json rules = nlohmann::json::array();
    for (const auto& rule : tools::lint_rules()) {
      if (output.json()) {
        rules.push_back({{"id", rule.id},
                         {"severity", tools::severity_to_text(rule.default_severity)},
                         {"summary", rule.summary},
                         {"basis", rule.basis}});
      } else {
        fmt::print("{:<20} {:<8} {} ({})\n", rule.id, tools::severity_to_text(rule.default_severity), rule.summary,
                   rule.basis);
      }
    }
    if (output.json()) output.document({{"command", output.command()}, {"rules", rules}});
    return ExitCode::kOk;
  }
  if (options.file.empty()) fail("ZONEFILE is required");
  auto origin = tools::zone_origin(options.origin, options.file);
  if (!origin) fail(origin.error().message);
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(options.file, ignored)) fail(options.file + ": not a readable file");
  tools::LintConfig config;
  if (!options.config.empty()) {
    auto loaded = tools::load_lint_config(options.config, *origin);
    if (!loaded) fail(loaded.error().message);
    config = std::move(*loaded);
  }
  for (const auto& pool : options.pools) {
    auto name = dns::Name::from_text(pool, &*origin);
    if (!name) fail("--pool '" + pool + "': " + name.error().message);
    config.pool_names.push_back(*name);
  }
  tools::LintReport report = tools::lint_zone_file(*origin, options.file, config);
  if (output.json()) {
    output.document(tools::lint_to_json(report));
  } else if (options.format == "sarif") {
    fmt::print("{}\n", tools::lint_to_sarif(report).dump(2));
  } else {
    fmt::print("{}", tools::lint_to_text(report));
  }
  return tools::exit_code_for(report.findings);
}

}  // namespace

void add_lint_command(CLI::App& app) {
  auto options = std::make_shared<LintOptions>();
  CLI::App* command = app.add_subcommand("lint", "Check a zone file against the TTL policy and delegation traps");
  command->add_option("file", options->file, "Master file");
  command->add_option("--origin", options->origin, "Zone origin (default: from the file name)");
  command->add_option("--config", options->config, "YAML rule configuration (rules, pools, thresholds)");
  command->add_option("--pool", options->pools, "Name answered by a health-checked pool (repeatable)");
  command->add_option("--format", options->format, "text, json or sarif (json: the same as --json)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  options->output.add_json_flag(*command, "Print the findings as one JSON document (--format json)");
  command->add_flag("--rules", options->list_rules, "List the rules with their default severity");
  command->callback([options] { Output::finish(run_lint(*options)); });
}

}  // namespace cutover::cmd
