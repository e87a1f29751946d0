// `cutover undo ZONE --to VERSION`: returns the zone to an earlier version as one ordinary
// fenced write, and prints its cache tail: how long resolvers may keep showing the state
// being undone (longest TTL changed, negative TTL for re-created names; docs/writes.md, "Undo and its cache tail").
#include <cstdio>
#include <memory>
#include <string>

#include "cmd/api_client.h"
#include "cmd/commands.h"

namespace cutover::cmd {
namespace {

struct UndoOptions {
  ApiOptions api;
  FenceOptions fence;
  std::string zone, view;
  unsigned long long to = 0;
  Output output{"undo"};
};

}  // namespace

void add_undo_command(CLI::App& app) {
  auto options = std::make_shared<UndoOptions>();
  auto* command = app.add_subcommand("undo", "Return a zone to an earlier version (a new fenced write)");
  command->add_option("zone", options->zone, "Zone origin")->required();
  command->add_option("--to", options->to, "The version to return to")->required();
  add_api_options(*command, options->api);
  add_view_option(*command, options->view);
  add_fence_options(*command, options->fence);
  options->output.add_json_flag(*command, "Print the API's reply as one JSON document (errors too)");
  command->callback([options] {
    nlohmann::json body = {{"to", options->to}};
    put_fence(options->fence, body);
    ApiReply reply = api_call(options->output, options->api, "POST", zone_path(options->zone, "undo", options->view), body);
    // The reply (on stdout) carries the cache tail too; this line is for a person.
    if (reply.status == 200 && reply.body.contains("cache_tail") && !options->output.json()) {
      const auto& tail = reply.body["cache_tail"];
      std::fprintf(stderr,
                   "cutover undo: cache tail %u s: caches may keep the undone records up to %u s (longest TTL "
                   "changed)%s\n",
                   tail["seconds"].get<unsigned>(), tail["longest_ttl"].get<unsigned>(),
                   tail["negative_ttl"].get<unsigned>() > 0
                       ? (", and re-created names may stay negatively cached up to " +
                          std::to_string(tail["negative_ttl"].get<unsigned>()) + " s (negative TTL)")
                             .c_str()
                       : "");
    }
    print_write_reply(options->output, reply);
  });
}

}  // namespace cutover::cmd
