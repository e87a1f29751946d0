// `cutover sweep NAME [TYPE]`: the name's authoritative servers and a list of resolvers side
// by side, with every disagreement flagged; --watch repeats until they agree. Exit 0 all
// agree, 1 findings (mismatch, silent or lame source), 2 could not run.
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "cmd/output.h"
#include "dns/types.h"
#include "tools/report/finding.h"
#include "tools/sweep/sweep.h"

namespace cutover::cmd {
namespace {

struct SweepOptions {
  std::string name;
  std::string type = "A";
  std::string auth;
  std::string resolvers;
  std::string resolv_conf = "/etc/resolv.conf";
  std::uint16_t auth_port = 53;
  double timeout = 2.0;
  int tries = 2;
  bool watch = false;
  double interval = 5.0;
  double max_duration = 600.0;
  bool until_agree = false;
  Output output{"sweep"};
};

ExitCode run_sweep(const SweepOptions& options) {
  const Output& output = options.output;
  auto fail = [&](const std::string& message) -> ExitCode { output.fail(ExitCode::kCouldNotRun, message); };
  tools::SweepSpec spec;
  auto question = tools::parse_question(options.name, options.type);
  if (!question) return fail(question.error().message);
  spec.name = question->name;
  spec.type = question->type;
  spec.auth_port = options.auth_port;
  spec.query.timeout = std::chrono::milliseconds(static_cast<long>(options.timeout * 1000));
  spec.query.tries = options.tries;
  auto auth = tools::parse_server_list(options.auth, options.auth_port);
  if (!auth) return fail("--auth: " + auth.error().message);
  spec.authoritative = *auth;
  if (options.resolvers.empty()) {
    std::ifstream in(options.resolv_conf);
    std::stringstream text;
    text << in.rdbuf();
    spec.resolvers = tools::resolv_conf_servers(text.str());
  } else {
    auto resolvers = tools::parse_server_list(options.resolvers, 53);
    if (!resolvers) return fail("--resolvers: " + resolvers.error().message);
    spec.resolvers = *resolvers;
  }
  if (spec.authoritative.empty() && spec.resolvers.empty()) return fail("no --auth, no --resolvers, no resolv.conf servers");

  if (!options.watch && !options.until_agree) {
    tools::SweepRound round = tools::sweep_once(spec);
    bool answered = false;
    for (const auto& source : round.sources) answered = answered || source.probe.answered;
    if (output.json()) {
      nlohmann::json report = tools::sweep_round_to_json(round);
      // Nothing answered: the report is the error document's detail, so stdout stays one document.
      if (!answered) output.fail(ExitCode::kCouldNotRun, "no source answered", {{"sweep", report}});
      output.document(report);
    } else {
      fmt::print("{}", tools::sweep_round_to_text(round));
      if (!answered) return ExitCode::kCouldNotRun;
    }
    return tools::exit_code_for(round.findings);
  }
  tools::WatchOptions watch_options;
  watch_options.interval = std::chrono::milliseconds(static_cast<long>(options.interval * 1000));
  watch_options.max_duration = std::chrono::milliseconds(static_cast<long>(options.max_duration * 1000));
  watch_options.until_agree = options.until_agree;
  tools::SweepWatch watch = tools::sweep_watch(spec, watch_options);
  if (output.json()) {
    output.document(tools::sweep_watch_to_json(watch));
  } else {
    fmt::print("{}", tools::sweep_watch_to_text(watch));
  }
  bool agreed = options.until_agree ? watch.agreed_after.has_value() : watch.rounds.back().all_agree;
  return agreed ? ExitCode::kOk : ExitCode::kFindings;
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto options = std::make_shared<SweepOptions>();
  CLI::App* command = app.add_subcommand("sweep", "Compare a name's answer across its authoritative servers and resolvers");
  command->add_option("name", options->name, "Name to ask for")->required();
  command->add_option("type", options->type, "RR type (default A)");
  command->add_option("--auth", options->auth, "Authoritative servers ADDR[:PORT],... (default: found via NS)");
  command->add_option("--auth-port", options->auth_port, "Port for authoritative servers found by name (default 53)");
  command->add_option("--resolvers", options->resolvers, "Resolvers ADDR[:PORT],... (default: /etc/resolv.conf)");
  command->add_option("--timeout", options->timeout, "Seconds per try (default 2)");
  command->add_option("--tries", options->tries, "UDP tries per question (default 2)")->check(CLI::Range(1, 10));
  command->add_flag("--watch", options->watch, "Repeat every --interval seconds");
  command->add_option("--interval", options->interval, "Seconds between rounds in --watch (default 5)");
  command->add_option("--max-duration", options->max_duration, "Stop watching after this many seconds (default 600)");
  command->add_flag("--until-agree", options->until_agree, "Watch until every source agrees (implies --watch)");
  options->output.add_json_flag(*command, "Print the report as one JSON document");
  command->callback([options] { Output::finish(run_sweep(*options)); });
}

}  // namespace cutover::cmd
