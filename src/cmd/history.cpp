// `cutover history ZONE`: lists the zone's journaled versions (who, what, when, serial and
// the records each removed and added) from a running server.
#include <cstdio>
#include <memory>
#include <string>

#include "cmd/api_client.h"
#include "cmd/commands.h"

namespace cutover::cmd {
namespace {

struct HistoryOptions {
  ApiOptions api;
  std::string zone, view;
  Output output{"history"};
};

}  // namespace

void add_history_command(CLI::App& app) {
  auto options = std::make_shared<HistoryOptions>();
  auto* command = app.add_subcommand("history", "List a zone's versions: who changed what, when");
  command->add_option("zone", options->zone, "Zone origin")->required();
  options->output.add_json_flag(*command, "Print the API's JSON reply");
  add_api_options(*command, options->api);
  add_view_option(*command, options->view);
  command->callback([options] {
    const Output& output = options->output;
    ApiReply reply = api_call(output, options->api, "GET", zone_path(options->zone, "history", options->view));
    const nlohmann::json& body = read_reply(output, reply);
    if (output.json()) {
      output.document(body);
      return;
    }
    for (const auto& entry : body["entries"]) {
      std::printf("version %llu  serial %llu  %s  who=%s  what=%s\n", entry["version"].get<unsigned long long>(),
                  entry["serial"].get<unsigned long long>(), utc_time(entry["at_ms"].get<long long>()).c_str(),
                  entry["who"].get<std::string>().c_str(), entry["what"].get<std::string>().c_str());
      for (const auto& line : entry["removed"]) std::printf("  - %s\n", line.get<std::string>().c_str());
      for (const auto& line : entry["added"]) std::printf("  + %s\n", line.get<std::string>().c_str());
    }
  });
}

}  // namespace cutover::cmd
