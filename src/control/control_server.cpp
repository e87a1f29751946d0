// ControlServer over cpp-httplib: bearer-token check in pre-routing, bind, background thread.
#include "control/control_server.h"

#include <arpa/inet.h>

#include <fmt/format.h>

namespace cutover::control {

ControlServer::ControlServer(ControlOptions options) : options_(std::move(options)) {
  std::string expected = "Bearer " + options_.bearer_token;
  bool needs_token = !options_.bearer_token.empty();
  http_.set_pre_routing_handler([needs_token, expected](const httplib::Request& request, httplib::Response& response) {
    if (!needs_token || request.get_header_value("Authorization") == expected) {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    reply_json(response, 401, R"({"error":"missing or wrong bearer token"})");
    return httplib::Server::HandlerResponse::Handled;
  });
}

ControlServer::~ControlServer() { stop(); }

void ControlServer::get(const std::string& pattern, Handler handler) { http_.Get(pattern, std::move(handler)); }
void ControlServer::post(const std::string& pattern, Handler handler) { http_.Post(pattern, std::move(handler)); }
void ControlServer::put(const std::string& pattern, Handler handler) { http_.Put(pattern, std::move(handler)); }
void ControlServer::del(const std::string& pattern, Handler handler) { http_.Delete(pattern, std::move(handler)); }
void ControlServer::patch(const std::string& pattern, Handler handler) { http_.Patch(pattern, std::move(handler)); }

base::Status ControlServer::start() {
  if (!is_loopback_address(options_.address) && options_.bearer_token.empty()) {
    return base::make_error(base::ErrorCode::kInvalidArgument,
                            fmt::format("control API on non-loopback address {} needs a bearer token", options_.address));
  }
  int port = options_.port == 0 ? http_.bind_to_any_port(options_.address.c_str())
                                : (http_.bind_to_port(options_.address.c_str(), options_.port) ? options_.port : -1);
  if (port <= 0) {
    return base::make_error(base::ErrorCode::kIo,
                            fmt::format("control API cannot listen on {}:{}", options_.address, options_.port));
  }
  port_ = static_cast<std::uint16_t>(port);
  thread_ = std::thread([this] { http_.listen_after_bind(); });
  return {};
}

void ControlServer::stop() {
  if (!thread_.joinable()) return;
  http_.stop();
  thread_.join();
}

void reply_json(httplib::Response& response, int status, const std::string& json_text) {
  response.status = status;
  response.set_content(json_text, "application/json");
}

}  // namespace cutover::control
