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
  std::string zone;
};

}  // namespace

void add_journal_command(CLI::App& app) {
  auto options = std::make_shared<JournalOptions>();
  auto* command = app.add_subcommand("journal", "Manage the write journal of a running server");
  command->require_subcommand(1);
  auto* compact = command->add_subcommand("compact", "Fold a zone's journal into its zone file");
  compact->add_option("zone", options->zone, "Zone origin")->required();
  add_api_options(*compact, options->api);
  compact->callback([options] {
    ApiReply reply = api_call("journal compact", options->api, "POST", "/zones/" + options->zone + "/compact");
    if (reply.status != 200) {
      std::fprintf(stderr, "cutover journal compact: %s\n", reply.body.value("error", std::string("failed")).c_str());
      throw CLI::RuntimeError(1);
    }
    std::printf("compacted %s up to version %llu\n", reply.body["zone"].get<std::string>().c_str(),
                reply.body["compacted_to_version"].get<unsigned long long>());
  });
}

}  // namespace cutover::cmd
