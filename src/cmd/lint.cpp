// `cutover lint ZONEFILE [--origin NAME]`: TTL policy and delegation traps of a master file as findings.
// Exit 0 clean (or notes only), 1 warnings or errors found, 2 could not run (bad origin,
// unreadable file or config).
#include <filesystem>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cmd/commands.h"
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
};

// Without --origin the file name says it: "example.test.zone" or "db.example.test" -> example.test.
int run_lint(const LintOptions& options) {
  constexpr int kCouldNotRun = static_cast<int>(tools::ExitCode::kCouldNotRun);
  if (options.list_rules) {
    for (const auto& rule : tools::lint_rules()) {
      fmt::print("{:<20} {:<8} {} ({})\n", rule.id, tools::severity_to_text(rule.default_severity), rule.summary,
                 rule.basis);
    }
    return 0;
  }
  if (options.file.empty()) {
    fmt::print(stderr, "cutover lint: ZONEFILE is required\n");
    return kCouldNotRun;
  }
  auto origin = tools::zone_origin(options.origin, options.file);
  if (!origin) {
    fmt::print(stderr, "cutover lint: {}\n", origin.error().message);
    return kCouldNotRun;
  }
  std::error_code ignored;
  if (!std::filesystem::is_regular_file(options.file, ignored)) {
    fmt::print(stderr, "cutover lint: {}: not a readable file\n", options.file);
    return kCouldNotRun;
  }
  tools::LintConfig config;
  if (!options.config.empty()) {
    auto loaded = tools::load_lint_config(options.config, *origin);
    if (!loaded) {
      fmt::print(stderr, "cutover lint: {}\n", loaded.error().message);
      return kCouldNotRun;
    }
    config = std::move(*loaded);
  }
  for (const auto& pool : options.pools) {
    auto name = dns::Name::from_text(pool, &*origin);
    if (!name) {
      fmt::print(stderr, "cutover lint: --pool '{}': {}\n", pool, name.error().message);
      return kCouldNotRun;
    }
    config.pool_names.push_back(*name);
  }
  tools::LintReport report = tools::lint_zone_file(*origin, options.file, config);
  if (options.format == "json") {
    fmt::print("{}\n", tools::lint_to_json(report).dump(2));
  } else if (options.format == "sarif") {
    fmt::print("{}\n", tools::lint_to_sarif(report).dump(2));
  } else {
    fmt::print("{}", tools::lint_to_text(report));
  }
  return static_cast<int>(tools::exit_code_for(report.findings));
}

}  // namespace

void add_lint_command(CLI::App& app) {
  auto options = std::make_shared<LintOptions>();
  CLI::App* command = app.add_subcommand("lint", "Check a zone file against the TTL policy and delegation traps");
  command->add_option("file", options->file, "Master file");
  command->add_option("--origin", options->origin, "Zone origin (default: from the file name)");
  command->add_option("--config", options->config, "YAML rule configuration (rules, pools, thresholds)");
  command->add_option("--pool", options->pools, "Name answered by a health-checked pool (repeatable)");
  command->add_option("--format", options->format, "text, json or sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  command->add_flag("--rules", options->list_rules, "List the rules with their default severity");
  command->callback([options] {
    int code = run_lint(*options);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace cutover::cmd
