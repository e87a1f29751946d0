// `cutover pool get|set|patch|delete|drain|undrain|force-up|history|undo`: pools in a
// running server through the pool API (fenced, journaled writes; docs/pools.md).
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "cmd/api_client.h"
#include "cmd/commands.h"

namespace cutover::cmd {
namespace {

struct PoolOptions {
  ApiOptions api;
  FenceOptions fence;
  std::string pool;
  std::string address;
  std::string settings;  // JSON text
  std::string file;      // or a file holding it
  long long to = -1;
  Output output{"pool"};
};

nlohmann::json settings_from(const PoolOptions& options) {
  std::string text = options.settings;
  if (!options.file.empty()) {
    std::ifstream in(options.file);
    if (!in) options.output.fail(ExitCode::kCouldNotRun, "cannot read " + options.file);
    std::stringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
  }
  auto settings = nlohmann::json::parse(text, nullptr, false);
  if (settings.is_discarded() || !settings.is_object()) {
    options.output.fail(ExitCode::kCouldNotRun, "the settings must be a JSON object");
  }
  return settings;
}

CLI::App* add_pool_sub(CLI::App& parent, const std::string& name, const std::string& help,
                       std::shared_ptr<PoolOptions>& options) {
  options = std::make_shared<PoolOptions>();
  options->output = Output("pool " + name);
  auto* command = parent.add_subcommand(name, help);
  command->add_option("pool", options->pool, "Pool id")->required();
  add_api_options(*command, options->api);
  options->output.add_json_flag(*command, "Print the API's reply as one JSON document (errors too)");
  return command;
}

void write_call(const PoolOptions& options, const std::string& method, const std::string& path, nlohmann::json body) {
  put_fence(options.fence, body);
  print_write_reply(options.output, api_call(options.output, options.api, method, path, body));
}

void print_pool_line(const nlohmann::json& pool) {
  std::string name = "-";
  std::string endpoints;
  const auto& settings = pool["settings"];
  if (settings.is_object()) {
    name = settings.value("name", std::string("-"));
    for (const auto& endpoint : settings.value("endpoints", nlohmann::json::array())) {
      endpoints += (endpoints.empty() ? "" : ",") + endpoint.value("address", endpoint.value("target", std::string("?")));
    }
  }
  std::string overrides;
  for (const auto& [address, value] : pool["overrides"].items()) {
    overrides += (overrides.empty() ? "" : ",") + address + "=" + value.get<std::string>();
  }
  std::printf("%-16s %-7s %-8llu %-28s %-34s %s\n", pool["pool"].get<std::string>().c_str(),
              pool["source"].get<std::string>().c_str(), pool["version"].get<unsigned long long>(), name.c_str(),
              endpoints.empty() ? "(config file)" : endpoints.c_str(), overrides.empty() ? "-" : overrides.c_str());
}

void add_get(CLI::App& parent) {
  auto options = std::make_shared<PoolOptions>();
  options->output = Output("pool get");
  auto* command = parent.add_subcommand("get", "List pools, or show one: source, version, settings, overrides");
  command->add_option("pool", options->pool, "Pool id (omit to list every pool)");
  options->output.add_json_flag(*command, "Print the API's JSON reply");
  add_api_options(*command, options->api);
  command->callback([options] {
    const Output& output = options->output;
    std::string path = options->pool.empty() ? "/pools" : "/pools/" + options->pool;
    ApiReply reply = api_call(output, options->api, "GET", path);
    const nlohmann::json& body = read_reply(output, reply);
    if (output.json() || !options->pool.empty()) {
      output.document(body);
      return;
    }
    std::printf("%-16s %-7s %-8s %-28s %-34s %s\n", "POOL", "SOURCE", "VERSION", "NAME", "ENDPOINTS", "OVERRIDES");
    for (const auto& pool : body["pools"]) print_pool_line(pool);
  });
}

void add_set_and_patch(CLI::App& parent) {
  std::shared_ptr<PoolOptions> set;
  auto* put = add_pool_sub(parent, "set", "Create or replace a pool (settings as under pools.ID in a config file, as JSON)", set);
  put->add_option("settings", set->settings, "The settings as a JSON object");
  put->add_option("--file", set->file, "Read the settings from this JSON file");
  add_fence_options(*put, set->fence);
  put->callback([set] { write_call(*set, "PUT", "/pools/" + set->pool, {{"pool", settings_from(*set)}}); });

  std::shared_ptr<PoolOptions> patch;
  auto* merge = add_pool_sub(parent, "patch", "Change some settings of a pool (a JSON merge patch: {\"ttl\": 30})", patch);
  merge->add_option("settings", patch->settings, "The merge patch as a JSON object");
  merge->add_option("--file", patch->file, "Read the patch from this JSON file");
  add_fence_options(*merge, patch->fence);
  merge->callback(
      [patch] { write_call(*patch, "PATCH", "/pools/" + patch->pool, {{"patch", settings_from(*patch)}}); });
}

void add_delete_and_undo(CLI::App& parent) {
  std::shared_ptr<PoolOptions> remove;
  auto* del = add_pool_sub(parent, "delete", "Delete a pool made through the API (refused by the floor unless --allow-empty)", remove);
  add_fence_options(*del, remove->fence);
  del->callback([remove] { write_call(*remove, "DELETE", "/pools/" + remove->pool, nlohmann::json::object()); });

  std::shared_ptr<PoolOptions> undo;
  auto* back = add_pool_sub(parent, "undo", "Return a pool (settings and overrides) to an earlier version, as a new write", undo);
  back->add_option("--to", undo->to, "The version to return to (0: before the pool's first write)")->required();
  add_fence_options(*back, undo->fence);
  back->callback([undo] {
    write_call(*undo, "POST", "/pools/" + undo->pool + "/undo", {{"to", static_cast<std::uint64_t>(undo->to)}});
  });
}

void add_overrides(CLI::App& parent) {
  for (const char* action : {"drain", "undrain", "force-up"}) {
    std::shared_ptr<PoolOptions> options;
    std::string help = std::string(action) + " an endpoint (a journaled write; takes effect at the next query)";
    auto* command = add_pool_sub(parent, action, help, options);
    command->add_option("address", options->address, "Endpoint address")->required();
    add_fence_options(*command, options->fence);
    command->callback([options, name = std::string(action)] {
      write_call(*options, "POST", "/pools/" + options->pool + "/endpoints/" + options->address + "/" + name,
                 nlohmann::json::object());
    });
  }
}

void add_pool_history(CLI::App& parent) {
  std::shared_ptr<PoolOptions> options;
  auto* command = add_pool_sub(parent, "history", "List a pool's versions: who changed what, when", options);
  command->callback([options] {
    const Output& output = options->output;
    ApiReply reply = api_call(output, options->api, "GET", "/pools/" + options->pool + "/history");
    const nlohmann::json& body = read_reply(output, reply);
    if (output.json()) {
      output.document(body);
      return;
    }
    for (const auto& entry : body["entries"]) {
      std::printf("version %llu  %s  who=%s  what=%s\n  %s\n", entry["version"].get<unsigned long long>(),
                  utc_time(entry["at_ms"].get<long long>()).c_str(), entry["who"].get<std::string>().c_str(),
                  entry["what"].get<std::string>().c_str(), entry["state"].dump().c_str());
    }
  });
}

}  // namespace

void add_pool_command(CLI::App& app) {
  auto* pool = app.add_subcommand("pool", "Pools in a running server: get, set, patch, delete, drain, history, undo");
  pool->require_subcommand(1);
  add_get(*pool);
  add_set_and_patch(*pool);
  add_delete_and_undo(*pool);
  add_overrides(*pool);
  add_pool_history(*pool);
}

}  // namespace cutover::cmd
