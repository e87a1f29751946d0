// `cutover journal compact ZONE`: asks a running server to fold the zone's journal into its
// zone file (written atomically) and drop the folded entries.
#include <cstdio>
#include <memory>
#include <string>

#include "cmd/api_client.h"
#include "cmd/commands.h"

namespace cutover::cmd {
namespace {

struct JournalOptions {
  ApiOptions api;
  std::string zone, view;
  Output output{"journal compact"};
};

}  // namespace

void add_journal_command(CLI::App& app) {
  auto options = std::make_shared<JournalOptions>();
  auto* command = app.add_subcommand("journal", "Manage the write journal of a running server");
  command->require_subcommand(1);
  auto* compact = command->add_subcommand("compact", "Fold a zone's journal into its zone file");
  compact->add_option("zone", options->zone, "Zone origin")->required();
  add_api_options(*compact, options->api);
  add_view_option(*compact, options->view);
  options->output.add_json_flag(*compact, "Print the API's JSON reply");
  compact->callback([options] {
    const Output& output = options->output;
    ApiReply reply = api_call(output, options->api, "POST", zone_path(options->zone, "compact", options->view));
    const nlohmann::json& body = read_reply(output, reply);
    if (output.json()) {
      output.document(body);
      return;
    }
    std::printf("compacted %s up to version %llu\n", body["zone"].get<std::string>().c_str(),
                body["compacted_to_version"].get<unsigned long long>());
  });
}

}  // namespace cutover::cmd
