// `cutover get ZONE [NAME [TYPE]]`: prints the zone's version and serial, then its records
// (optionally one name or RRset) in master-file form, from a running server.
#include <cstdio>
#include <memory>
#include <string>

#include <httplib.h>

#include "cmd/api_client.h"
#include "cmd/commands.h"

namespace cutover::cmd {
namespace {

struct GetOptions {
  ApiOptions api;
  std::string zone, name, type, view;
  Output output{"get"};
};

}  // namespace

void add_get_command(CLI::App& app) {
  auto options = std::make_shared<GetOptions>();
  auto* command = app.add_subcommand("get", "Show a zone's records, version and serial from a running server");
  command->add_option("zone", options->zone, "Zone origin")->required();
  command->add_option("name", options->name, "Only this owner name");
  command->add_option("type", options->type, "Only this RR type");
  options->output.add_json_flag(*command, "Print the API's JSON reply");
  add_api_options(*command, options->api);
  add_view_option(*command, options->view);
  command->callback([options] {
    std::string query;
    if (!options->name.empty()) query += "name=" + httplib::detail::encode_query_param(options->name);
    if (!options->type.empty()) query += (query.empty() ? "" : "&") + std::string("type=") + options->type;
    std::string path = zone_path(options->zone, "records", options->view, query);
    const Output& output = options->output;
    ApiReply reply = api_call(output, options->api, "GET", path);
    const nlohmann::json& body = read_reply(output, reply);
    if (output.json()) {
      output.document(body);
      return;
    }
    std::printf("; zone %s version %llu serial %llu\n", body["zone"].get<std::string>().c_str(),
                body["version"].get<unsigned long long>(), body["serial"].get<unsigned long long>());
    for (const auto& record : body["records"]) {
      std::printf("%s %u IN %s %s\n", record["name"].get<std::string>().c_str(), record["ttl"].get<unsigned>(),
                  record["type"].get<std::string>().c_str(), record["data"].get<std::string>().c_str());
    }
  });
}

}  // namespace cutover::cmd
