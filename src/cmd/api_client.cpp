// HTTP calls to the control API for the write subcommands.
#include "cmd/api_client.h"

#include <cstdlib>
#include <ctime>

#include <httplib.h>

namespace cutover::cmd {

void add_api_options(CLI::App& command, ApiOptions& options) {
  command.add_option("--control", options.control, "ADDRESS:PORT of the server's control API")->capture_default_str();
  command.add_option("--token", options.token, "Bearer token (default: $CUTOVER_TOKEN)");
}

void add_view_option(CLI::App& command, std::string& view) {
  command.add_option("--view", view, "The view whose own copy of the zone to address (default: the top-level zone)");
}

std::string zone_path(const std::string& zone, const std::string& action, const std::string& view,
                      const std::string& query) {
  std::string path = "/zones/" + zone + "/" + action;
  std::string params = view.empty() ? "" : "view=" + httplib::detail::encode_query_param(view);
  if (!query.empty()) params += (params.empty() ? "" : "&") + query;
  return params.empty() ? path : path + "?" + params;
}

void add_fence_options(CLI::App& command, FenceOptions& options) {
  command.add_option("--expected-version", options.expected_version, "Apply only if the zone is at this version");
  command.add_option("--plan-version", options.plan_version, "Apply only if above the last applied plan version");
  command.add_flag("--allow-empty", options.allow_empty, "Allow a name to lose its last address record");
  command.add_flag("--dry-run", options.dry_run, "Show the answers the write would change; apply nothing");
  command.add_option("--who", options.who, "Writer name recorded in the history");
}

void put_fence(const FenceOptions& fence, nlohmann::json& body) {
  if (fence.expected_version >= 0) body["expected_version"] = static_cast<std::uint64_t>(fence.expected_version);
  if (fence.plan_version >= 0) body["plan_version"] = static_cast<std::uint64_t>(fence.plan_version);
  if (fence.allow_empty) body["allow_empty"] = true;
  if (fence.dry_run) body["dry_run"] = true;
  body["who"] = fence.who.empty() ? "cli" : fence.who;
}

ApiReply api_call(const Output& output, const ApiOptions& options, const std::string& method, const std::string& path,
                  const nlohmann::json& body) {
  auto colon = options.control.rfind(':');
  if (colon == std::string::npos) output.fail(ExitCode::kCouldNotRun, "--control must be ADDRESS:PORT");
  std::string host = options.control.substr(0, colon);
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  int port = std::atoi(options.control.c_str() + colon + 1);
  httplib::Client client(host, port);
  client.set_connection_timeout(5);
  client.set_read_timeout(30);
  std::string token = options.token;
  if (token.empty() && std::getenv("CUTOVER_TOKEN") != nullptr) token = std::getenv("CUTOVER_TOKEN");
  if (!token.empty()) client.set_bearer_token_auth(token);
  std::string text = body.is_null() ? "{}" : body.dump();
  auto result = method == "GET"     ? client.Get(path)
                : method == "PUT"   ? client.Put(path, text, "application/json")
                : method == "PATCH" ? client.Patch(path, text, "application/json")
                : method == "DELETE" ? client.Delete(path, text, "application/json")
                                     : client.Post(path, text, "application/json");
  if (!result) {
    output.fail(ExitCode::kCouldNotRun,
                "cannot reach " + options.control + ": " + httplib::to_string(result.error()));
  }
  ApiReply reply;
  reply.status = result->status;
  reply.body = nlohmann::json::parse(result->body, nullptr, false);
  if (reply.body.is_discarded()) {
    output.fail(ExitCode::kCouldNotRun, "HTTP " + std::to_string(result->status) + ": " + result->body,
                {{"status", result->status}});
  }
  return reply;
}

const nlohmann::json& read_reply(const Output& output, const ApiReply& reply) {
  if (reply.status != 200) {
    std::string message = reply.body.is_object() ? reply.body.value("error", std::string("failed")) : "failed";
    output.fail(ExitCode::kCouldNotRun, "HTTP " + std::to_string(reply.status) + ": " + message,
                {{"status", reply.status}, {"reply", reply.body}});
  }
  return reply.body;
}

std::string utc_time(long long at_ms) {
  std::time_t seconds = static_cast<std::time_t>(at_ms / 1000);
  std::tm parts{};
  ::gmtime_r(&seconds, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &parts);
  return std::string(text) + "." + std::to_string(1000 + at_ms % 1000).substr(1) + "Z";
}

void print_write_reply(const Output& output, const ApiReply& reply) {
  if (reply.status == 200) {
    output.document(reply.body);
    return;
  }
  std::string message = "refused";
  if (reply.body.is_object()) message = reply.body.value("message", reply.body.value("error", message));
  ExitCode code = reply.status >= 400 && reply.status < 500 ? ExitCode::kFindings : ExitCode::kCouldNotRun;
  // Without --json the reply stays on stdout, as a successful one would be.
  if (!output.json()) output.document(reply.body);
  output.fail(code, "HTTP " + std::to_string(reply.status) + ": " + message,
              {{"status", reply.status}, {"reply", reply.body}});
}

}  // namespace cutover::cmd
