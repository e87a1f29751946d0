// `cutover lab`: run the resolver-clock experiments against real resolvers (run), re-check a
// saved run's reports against its raw observations (check), compare two runs (compare).
// `lab run` exits 1 when a case is outside its tolerance (a finding), 2 when a case could not
// be measured or the run could not start; with --json its progress goes to stderr.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cmd/commands.h"
#include "cmd/output.h"
#include "lab/experiments/experiment.h"
#include "lab/process.h"
#include "lab/authority/authority_process.h"
#include "lab/clients/client.h"
#include "lab/report/results_file.h"
#include "lab/resolvers/resolver.h"
#include "lab/runner.h"

namespace cutover::cmd {
namespace {

struct LabRunOptions {
  std::string resolvers = "unbound,bind";
  std::string experiments = "all";
  std::string out_dir;
  std::string compare;
  std::uint16_t authority_port = 0;
  double client_timeout = lab::kDefaultClientTimeout;
  int repeat = 1;
  std::vector<std::string> resolver_options;
  std::string cases;
  std::string clients;
  Output output{"lab run"};
};

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

std::string client_ids_text() {
  std::string text;
  for (const auto& id : lab::builtin_client_ids()) text += (text.empty() ? "" : ",") + id;
  return text;
}

void run_lab_command(const LabRunOptions& options) {
  const Output& output = options.output;
  auto fail = [&](const std::string& message) { output.fail(ExitCode::kCouldNotRun, message); };
  lab::RunOptions run;
  run.resolvers = options.resolvers == "all" ? lab::builtin_resolver_names() : split_list(options.resolvers);
  for (const auto& resolver : run.resolvers) {
    if (!lab::make_resolver(resolver)) fail("unknown resolver " + resolver + " (" + lab::resolver_usage() + ")");
  }
  std::vector<std::string> known;
  for (const auto& experiment : lab::experiments()) known.push_back(experiment.id);
  run.experiments = options.experiments == "all" ? known : split_list(options.experiments);
  for (const auto& id : run.experiments) {
    if (std::find(known.begin(), known.end(), id) == known.end()) fail("unknown experiment " + id);
  }
  run.out_dir = options.out_dir;
  run.cutover_binary = lab::self_executable();
  run.authority_port = options.authority_port;
  if (!(options.client_timeout > 0 && options.client_timeout <= 60)) fail("--client-timeout must be in (0, 60] seconds");
  run.client_timeout = options.client_timeout;
  if (options.repeat < 1 || options.repeat > 20) fail("--repeat must be 1 to 20");
  run.repeat = options.repeat;
  for (const auto& text : options.resolver_options) {
    auto option = lab::parse_resolver_option(text);
    if (!option) fail("--resolver-option " + text + ": expected ADAPTER:LINE with ADAPTER one of " + lab::resolver_usage());
    bool running = false;
    for (const auto& resolver : run.resolvers) running = running || lab::make_resolver(resolver)->name() == option->first;
    if (!running) fail("--resolver-option " + text + ": " + option->first + " is not in --resolvers");
    run.resolver_options[option->first].push_back(option->second);
  }
  run.cases = options.cases;
  if (!options.clients.empty()) {
    run.clients = options.clients == "all" ? lab::builtin_client_ids()
                  : options.clients == "ci" ? lab::ci_client_ids()
                                            : split_list(options.clients);
    for (const auto& id : run.clients) {
      if (!lab::make_client(id)) fail("unknown client " + id + " (one of " + client_ids_text() + ", all or ci)");
    }
  }
  // The earlier run is read first: a bad --compare file should not cost a whole run.
  std::optional<lab::RunResults> before;
  if (!options.compare.empty()) {
    auto read = lab::read_results(options.compare);
    if (!read) fail(read.error().message);
    before = std::move(*read);
  }
  lab::install_interrupt_handler();
  // With --json stdout holds only the final document; the progress lines go to stderr.
  auto results = lab::run_lab(run, output.json() ? stderr : stdout);
  if (!results) fail(results.error().message);
  auto written = lab::write_reports(*results, options.out_dir);
  if (!written) fail(written.error().message);
  int errors = 0, findings = 0;
  for (const auto& result : results->cases) {
    errors += result.verdict == lab::Verdict::kError;
    findings += result.verdict == lab::Verdict::kFail;
  }
  std::string compare_text;
  if (before) {
    compare_text = lab::render_compare(*before, *results);
    std::FILE* file = std::fopen((options.out_dir + "/compare.md").c_str(), "w");
    if (file != nullptr) {
      std::fputs(compare_text.c_str(), file);
      std::fclose(file);
    }
  }
  ExitCode code = errors > 0 ? ExitCode::kCouldNotRun : findings > 0 ? ExitCode::kFindings : ExitCode::kOk;
  if (output.json()) {
    nlohmann::json summary = {{"command", output.command()},
                              {"exit_code", static_cast<int>(code)},
                              {"wall_seconds", results->wall_seconds},
                              {"cases", results->cases.size()},
                              {"findings", findings},
                              {"unmeasured", errors},
                              {"out", options.out_dir},
                              {"files", {"results.json", "report.md", "report.html"}}};
    if (before) summary["compare"] = compare_text;
    if (errors > 0) summary["error"] = std::to_string(errors) + " cases could not be measured";
    output.document(summary);
  } else {
    std::printf("wall time %.1f s; %zu cases, %d outside tolerance (findings), %d could not be measured\n"
                "wrote %s/results.json, report.md, report.html\n",
                results->wall_seconds, results->cases.size(), findings, errors, options.out_dir.c_str());
    std::fputs(compare_text.c_str(), stdout);
  }
  Output::finish(code);
}

}  // namespace

void add_lab_command(CLI::App& app) {
  auto* lab = app.add_subcommand("lab", "Measure resolver clocks (TTL, negative, stale, failure, delegation) against "
                                        "real resolvers on loopback");
  lab->require_subcommand(1);

  auto options = std::make_shared<LabRunOptions>();
  auto* run = lab->add_subcommand("run", "Run experiments; exit 1 when a case is outside its tolerance, 2 when a case "
                                         "could not be measured");
  run->add_option("--resolvers", options->resolvers,
                  "Comma list: " + lab::resolver_usage() + " or all");
  std::string experiment_ids;
  for (const auto& experiment : lab::experiments()) experiment_ids += (experiment_ids.empty() ? "" : ",") + experiment.id;
  run->add_option("--experiments", options->experiments, "Comma list of " + experiment_ids + " or all");
  run->add_option("--out", options->out_dir, "Directory for results.json, report.md, report.html")->required();
  run->add_option("--compare", options->compare, "An earlier results.json to compare this run with");
  run->add_option("--authority-port", options->authority_port,
                  "Fixed DNS port of the lab authority on 127.0.0.1 (for external resolvers)");
  run->add_option("--client-timeout", options->client_timeout,
                  "Seconds a client waits for each poll (RFC 8767 client response timer); a later reply counts "
                  "as a timeout for that poll")
      ->capture_default_str();
  run->add_option("--repeat", options->repeat,
                  "Run every case N times; results.json keeps every run, the report the spread and unstable verdicts")
      ->capture_default_str();
  run->add_option("--resolver-option", options->resolver_options,
                  "ADAPTER:LINE, a line in that resolver's own config syntax; the selected cases also run with it "
                  "(all lines of one adapter together), beside the default configuration. Repeatable");
  run->add_option("--clients", options->clients,
                  "Comma list of client runtimes for E6, E7, E11, E12 and E15 (" + client_ids_text() +
                      "), all, or ci (python,curl,curl-long,java,cutover); each case runs in its own network "
                      "namespace (needs root)");
  run->add_option("--cases", options->cases, "Comma list of globs over case names within --experiments (e.g. 'ttl20-*')");
  options->output.add_json_flag(*run, "Print the run's summary as one JSON document (progress goes to stderr)");
  run->callback([options] { run_lab_command(*options); });

  struct CheckOptions {
    std::string dir;
    Output output{"lab check"};
  };
  auto checked = std::make_shared<CheckOptions>();
  auto* check = lab->add_subcommand("check", "Re-derive every measured value and report.md from results.json");
  check->add_option("DIR", checked->dir, "A lab output directory")->required();
  checked->output.add_json_flag(*check, "Print the problems as one JSON document");
  check->callback([checked] {
    const Output& output = checked->output;
    // No results to check is no inconsistency: the check could not run.
    if (!std::ifstream(checked->dir + "/results.json")) {
      output.fail(ExitCode::kCouldNotRun, "cannot read " + checked->dir + "/results.json");
    }
    auto problems = lab::check_reports(checked->dir);
    if (output.json()) {
      output.document({{"command", output.command()}, {"dir", checked->dir}, {"consistent", problems.empty()},
                       {"problems", problems}});
    } else {
      for (const auto& problem : problems) std::printf("inconsistent: %s\n", problem.c_str());
      if (problems.empty()) {
        std::printf("%s: results.json and report.md agree with the raw observations\n", checked->dir.c_str());
      }
    }
    Output::finish(problems.empty() ? ExitCode::kOk : ExitCode::kFindings);
  });

  struct CompareOptions {
    std::vector<std::string> files;
    Output output{"lab compare"};
  };
  auto compared = std::make_shared<CompareOptions>();
  auto* compare = lab->add_subcommand("compare", "Show the cases that differ between two runs");
  compare->add_option("BEFORE_AFTER", compared->files, "Two results.json files")->required()->expected(2);
  compared->output.add_json_flag(*compare, "Print the comparison (Markdown) inside one JSON document");
  compare->callback([compared] {
    const Output& output = compared->output;
    auto before = lab::read_results(compared->files[0]);
    auto after = lab::read_results(compared->files[1]);
    if (!before || !after) output.fail(ExitCode::kCouldNotRun, !before ? before.error().message : after.error().message);
    std::string text = lab::render_compare(*before, *after);
    if (output.json()) {
      output.document({{"command", output.command()}, {"before", compared->files[0]}, {"after", compared->files[1]},
                       {"markdown", text}});
    } else {
      std::fputs(text.c_str(), stdout);
    }
  });
}

}  // namespace cutover::cmd
