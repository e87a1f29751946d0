// `cutover trace NAME [TYPE]`: the delegation walk from the root with both copies of every
// delegation side by side. Exit 0 clean, 1 findings, 2 nothing answered or bad arguments.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "cmd/output.h"
#include "dns/types.h"
#include "tools/probe/dns_probe.h"
#include "tools/trace/trace.h"

namespace cutover::cmd {
namespace {

// a, b, c, d and k.root-servers.net (IANA root hints); --root replaces them.
constexpr const char* kRootHints = "198.41.0.4,170.247.170.2,192.33.4.12,199.7.91.13,193.0.14.129";

struct TraceOptions {
  std::string name;
  std::string type = "A";
  std::string root;
  std::string old_servers;
  double timeout = 2.0;
  int tries = 2;
  Output output{"trace"};
};

ExitCode run_trace(const TraceOptions& options) {
  const Output& output = options.output;
  auto fail = [&](const std::string& message) -> ExitCode { output.fail(ExitCode::kCouldNotRun, message); };
  tools::TraceSpec spec;
  auto question = tools::parse_question(options.name, options.type);
  if (!question) return fail(question.error().message);
  spec.name = question->name;
  spec.type = question->type;
  auto roots = tools::parse_server_list(options.root.empty() ? kRootHints : options.root, 53);
  if (!roots || roots->empty()) return fail("--root: " + (roots ? std::string("empty") : roots.error().message));
  spec.roots = *roots;
  spec.port = spec.roots.front().port();
  auto old_servers = tools::parse_server_list(options.old_servers, spec.port);
  if (!old_servers) return fail("--old-servers: " + old_servers.error().message);
  spec.old_servers = *old_servers;
  spec.query.timeout = std::chrono::milliseconds(static_cast<long>(options.timeout * 1000));
  spec.query.tries = options.tries;

  tools::TraceResult result = tools::trace(spec);
  bool ran = !(result.cuts.empty() && !result.completed);
  if (output.json()) {
    nlohmann::json report = tools::trace_to_json(result);
    // Nothing answered: the report is the error document's detail, so stdout stays one document.
    if (!ran) output.fail(ExitCode::kCouldNotRun, "no server answered", {{"trace", report}});
    output.document(report);
  } else {
    fmt::print("{}", tools::trace_to_text(result));
    if (!ran) return ExitCode::kCouldNotRun;
  }
  return tools::exit_code_for(result.findings);
}

}  // namespace

void add_trace_command(CLI::App& app) {
  auto options = std::make_shared<TraceOptions>();
  CLI::App* command = app.add_subcommand("trace", "Walk the delegation from the root and compare parent and child NS");
  command->add_option("name", options->name, "Name to trace")->required();
  command->add_option("type", options->type, "RR type (default A)");
  command->add_option("--root", options->root,
                      "Root servers ADDR[:PORT],... (default: root hints); their port is used for every server");
  command->add_option("--old-servers", options->old_servers,
                      "Servers the zone used before a move, ADDR[:PORT],...: reported when still live");
  command->add_option("--timeout", options->timeout, "Seconds per try (default 2)");
  command->add_option("--tries", options->tries, "UDP tries per question (default 2)")->check(CLI::Range(1, 10));
  options->output.add_json_flag(*command, "Print the walk as one JSON document");
  command->callback([options] { Output::finish(run_trace(*options)); });
}

}  // namespace cutover::cmd
