// `cutover delete ZONE NAME [TYPE [DATA...]]`: deletes a name, an RRset or single records
// through the write API (fenced, journaled; refused by the floor unless --allow-empty).
#include <memory>
#include <string>
#include <vector>

#include "cmd/api_client.h"
#include "cmd/commands.h"

namespace cutover::cmd {
namespace {

struct DeleteOptions {
  ApiOptions api;
  FenceOptions fence;
  std::string zone, name, type, view;
  std::vector<std::string> data;
  Output output{"delete"};
};

}  // namespace

void add_delete_command(CLI::App& app) {
  auto options = std::make_shared<DeleteOptions>();
  auto* command = app.add_subcommand("delete", "Delete a name, an RRset or records in a running server (fenced write)");
  command->add_option("zone", options->zone, "Zone origin")->required();
  command->add_option("name", options->name, "Owner name, relative to the zone or absolute")->required();
  command->add_option("type", options->type, "RR type (omit to delete the whole name)");
  command->add_option("data", options->data, "Records to delete (omit to delete the RRset)");
  add_api_options(*command, options->api);
  add_view_option(*command, options->view);
  add_fence_options(*command, options->fence);
  options->output.add_json_flag(*command, "Print the API's reply as one JSON document (errors too)");
  command->callback([options] {
    nlohmann::json edit = {{"op", "delete"}, {"name", options->name}};
    if (!options->type.empty()) edit["type"] = options->type;
    if (!options->data.empty()) edit["data"] = options->data;
    nlohmann::json body;
    body["edits"] = nlohmann::json::array({edit});
    put_fence(options->fence, body);
    print_write_reply(options->output, api_call(options->output, options->api, "POST", zone_path(options->zone, "records", options->view), body));
  });
}

}  // namespace cutover::cmd
