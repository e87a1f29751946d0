// `cutover plan ZONEFILE --set/--delete/--move-ns ...`: the dated change runbook (Markdown or
// JSON). Exit 0 with a plan, 1 when the plan is refused (NS and records in one step without
// --force), 2 when the inputs cannot be read.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "cmd/commands.h"
#include "cmd/lab_clients.h"
#include "cmd/output.h"
#include "tools/report/zone_origin.h"
#include "tools/plan/runbook.h"
#include "tools/plan/runbook_output.h"
#include "tools/report/finding.h"
#include "zone/loader.h"

namespace cutover::cmd {
namespace {

struct PlanOptions {
  std::string file;
  std::string origin;
  std::vector<std::string> sets;
  std::vector<std::string> deletes;
  std::string move_ns;
  std::string inventory;
  std::string lab_results;
  std::string start;
  std::string resolvers;
  std::string output_file;
  std::uint32_t parent_ns_ttl = 0;
  std::uint32_t low_ttl = 300;
  bool force = false;
  Output output{"plan"};
};

ExitCode run_plan(const PlanOptions& options) {
  const Output& output = options.output;
  auto fail = [&](const std::string& message) -> ExitCode { output.fail(ExitCode::kCouldNotRun, message); };
  auto origin = tools::zone_origin(options.origin, options.file);
  if (!origin) return fail(origin.error().message);
  zone::ZoneLoad load = zone::load_zone_file(*origin, options.file);
  if (!load.zone) {
    std::vector<std::string> diagnostics;
    for (const auto& diagnostic : load.diagnostics) diagnostics.push_back(diagnostic.to_string());
    if (!output.json()) {
      for (const auto& line : diagnostics) fmt::print(stderr, "{}\n", line);
    }
    output.fail(ExitCode::kCouldNotRun, fmt::format("{}: the zone does not load", options.file),
                {{"diagnostics", diagnostics}});
  }

  tools::PlanRequest request;
  request.origin = *origin;
  request.low_ttl = options.low_ttl;
  request.force = options.force;
  if (options.parent_ns_ttl > 0) request.parent_ns_ttl = options.parent_ns_ttl;
  for (const auto& text : options.sets) {
    auto change = tools::parse_set_change(text, *origin);
    if (!change) return fail(change.error().message);
    request.changes.push_back(*change);
  }
  for (const auto& text : options.deletes) {
    auto change = tools::parse_delete_change(text, *origin);
    if (!change) return fail(change.error().message);
    request.changes.push_back(*change);
  }
  if (!options.move_ns.empty()) {
    auto names = tools::parse_nameserver_list(options.move_ns, *origin);
    if (!names) return fail(names.error().message);
    request.new_nameservers = *names;
  }
  if (request.changes.empty() && request.new_nameservers.empty()) return fail("nothing to plan: give --set, --delete or --move-ns");
  if (!options.inventory.empty()) {
    std::ifstream in(options.inventory);
    if (!in) return fail(options.inventory + ": cannot open");
    std::stringstream text;
    text << in.rdbuf();
    std::vector<tools::MeasuredClient> measured = load_lab_clients(options.lab_results, output);
    auto clients = tools::parse_client_inventory(text.str(), measured);
    if (!clients) return fail(clients.error().message);
    request.clients = *clients;
    request.client_terms_source = tools::client_terms_source(measured);
  }
  std::stringstream resolvers(options.resolvers);
  for (std::string item; std::getline(resolvers, item, ',');) {
    if (!item.empty()) request.resolvers.push_back(item);
  }
  if (options.start.empty()) {
    request.start = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
  } else {
    auto start = tools::parse_utc_time(options.start);
    if (!start) return fail(start.error().message);
    request.start = *start;
  }

  tools::Runbook book = tools::build_runbook(*load.zone, request);
  std::string text = output.json() ? tools::runbook_to_json(book).dump(2) + "\n" : tools::runbook_to_markdown(book);
  if (options.output_file.empty()) {
    fmt::print("{}", text);
  } else {
    std::ofstream out(options.output_file);
    if (!(out << text)) return fail(options.output_file + ": cannot write");
    // stdout still holds one document: where the runbook went.
    if (output.json()) {
      output.document({{"command", output.command()}, {"written", options.output_file}, {"refused", book.refused},
                       {"refusal", book.refusal}});
    }
  }
  if (book.refused) {
    // The runbook (on stdout or in the file) says why too; this line is for a person.
    if (!output.json()) fmt::print(stderr, "cutover plan: {}\n", book.refusal);
    return ExitCode::kFindings;
  }
  return ExitCode::kOk;
}

}  // namespace

void add_plan_command(CLI::App& app) {
  auto options = std::make_shared<PlanOptions>();
  CLI::App* command = app.add_subcommand("plan", "Dated runbook for a record change or a name server move");
  command->add_option("file", options->file, "Current zone file")->required()->check(CLI::ExistingFile);
  command->add_option("--origin", options->origin, "Zone origin (default: from the file name)");
  command->add_option("--set", options->sets, "Record to set, e.g. 'app A 203.0.113.50' (repeatable)");
  command->add_option("--delete", options->deletes, "RRset to delete, 'NAME TYPE' (repeatable)");
  command->add_option("--move-ns", options->move_ns, "New name servers, 'ns1.new.example.,ns2.new.example.'");
  command->add_option("--inventory", options->inventory,
                      "YAML client inventory (services with profile, client or cache_seconds)");
  command->add_option("--lab-results", options->lab_results,
                      "results.json of cutover lab run --clients: the inventory's client: ids as measured here");
  command->add_option("--parent-ns-ttl", options->parent_ns_ttl, "Parent NS TTL, seconds (read it with cutover trace)");
  command->add_option("--low-ttl", options->low_ttl, "TTL to lower to before the change (default 300)");
  command->add_option("--start", options->start, "T+0 in UTC, YYYY-MM-DDTHH:MMZ (default: now)");
  command->add_option("--resolvers", options->resolvers, "Resolvers for the verification commands, comma-separated");
  command->add_option("--output,-o", options->output_file, "Write the runbook to this file");
  options->output.add_json_flag(*command, "JSON instead of Markdown (errors too)");
  command->add_flag("--force", options->force, "Allow name servers and records to change in one step");
  command->callback([options] { Output::finish(run_plan(*options)); });
}

}  // namespace cutover::cmd
