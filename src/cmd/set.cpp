// `cutover set ZONE NAME TYPE DATA...`: replaces an RRset through the write API (fenced,
// journaled); `--add` adds the records to the RRset instead.
#include <memory>
#include <string>
#include <vector>

#include "cmd/api_client.h"
#include "cmd/commands.h"

namespace cutover::cmd {
namespace {

struct SetOptions {
  ApiOptions api;
  FenceOptions fence;
  std::string zone, name, type, view;
  std::vector<std::string> data;
  unsigned ttl = 300;
  bool add = false;
  Output output{"set"};
};

}  // namespace

void add_set_command(CLI::App& app) {
  auto options = std::make_shared<SetOptions>();
  auto* command = app.add_subcommand("set", "Set (replace) an RRset in a running server, as a fenced, journaled write");
  command->add_option("zone", options->zone, "Zone origin")->required();
  command->add_option("name", options->name, "Owner name, relative to the zone or absolute")->required();
  command->add_option("type", options->type, "RR type")->required();
  command->add_option("data", options->data, "Record data, one argument per record")->required();
  command->add_option("--ttl", options->ttl, "TTL in seconds")->capture_default_str();
  command->add_flag("--add", options->add, "Add to the RRset instead of replacing it");
  add_api_options(*command, options->api);
  add_view_option(*command, options->view);
  add_fence_options(*command, options->fence);
  options->output.add_json_flag(*command, "Print the API's reply as one JSON document (errors too)");
  command->callback([options] {
    nlohmann::json body;
    body["edits"] = nlohmann::json::array({{{"op", options->add ? "add" : "set"},
                                            {"name", options->name},
                                            {"type", options->type},
                                            {"ttl", options->ttl},
                                            {"data", options->data}}});
    put_fence(options->fence, body);
    print_write_reply(options->output, api_call(options->output, options->api, "POST", zone_path(options->zone, "records", options->view), body));
  });
}

}  // namespace cutover::cmd
