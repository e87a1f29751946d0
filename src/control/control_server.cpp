// ControlServer over cpp-httplib: bearer-token check in pre-routing, bind, background thread.
// The access rule (access_of): a write from a peer off loopback is refused unless
// remote_writes; then, with a token set, a request passes when it carries
// "Authorization: Bearer TOKEN" (RFC 6750 §2.1), when it reads a public path, or, with
// open_loopback_reads, when it is a GET or HEAD from a loopback peer.
#include "control/control_server.h"

#include <arpa/inet.h>

#include <fmt/format.h>

namespace cutover::control {

Access access_of(const ControlOptions& options, const std::set<std::string, std::less<>>& public_paths,
                 const AccessRequest& request) {
  bool read = request.method == "GET" || request.method == "HEAD";
  bool loopback_peer = is_loopback_address(std::string(request.remote_addr));
  if (!read && !loopback_peer && !options.remote_writes) return Access::kNotFromThisPeer;
  if (options.bearer_token.empty()) return Access::kAllow;
  if (request.authorization == "Bearer " + options.bearer_token) return Access::kAllow;
  if (read && public_paths.contains(request.path)) return Access::kAllow;
  if (read && options.open_loopback_reads && loopback_peer) return Access::kAllow;
  return Access::kNeedsToken;
}

ControlServer::ControlServer(ControlOptions options)
    : options_(std::move(options)), public_paths_(std::make_shared<std::set<std::string, std::less<>>>()) {
  std::shared_ptr<const std::set<std::string, std::less<>>> public_paths = public_paths_;
  http_.set_pre_routing_handler([options = options_, public_paths](const httplib::Request& request,
                                                                   httplib::Response& response) {
    std::string authorization = request.get_header_value("Authorization");
    switch (access_of(options, *public_paths, {request.method, request.path, request.remote_addr, authorization})) {
      case Access::kAllow:
        return httplib::Server::HandlerResponse::Unhandled;
      case Access::kNeedsToken:
        reply_json(response, 401, R"({"error":"missing or wrong bearer token"})");
        break;
      case Access::kNotFromThisPeer:
        reply_json(response, 403, R"({"error":"write actions are accepted from loopback only; see control.remote-writes"})");
        break;
    }
    return httplib::Server::HandlerResponse::Handled;
  });
}

ControlServer::~ControlServer() { stop(); }

void ControlServer::get(const std::string& pattern, Handler handler) { http_.Get(pattern, std::move(handler)); }
void ControlServer::post(const std::string& pattern, Handler handler) { http_.Post(pattern, std::move(handler)); }
void ControlServer::put(const std::string& pattern, Handler handler) { http_.Put(pattern, std::move(handler)); }
void ControlServer::del(const std::string& pattern, Handler handler) { http_.Delete(pattern, std::move(handler)); }
void ControlServer::patch(const std::string& pattern, Handler handler) { http_.Patch(pattern, std::move(handler)); }

void ControlServer::get_public(const std::string& path, Handler handler) {
  public_paths_->insert(path);
  std::string pattern;
  for (char c : path) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) pattern.push_back('\\');
    pattern.push_back(c);
  }
  http_.Get(pattern, std::move(handler));
}

base::Status ControlServer::start() {
  if (!is_loopback_address(options_.address) && options_.bearer_token.empty()) {
    return base::make_error(base::ErrorCode::kInvalidArgument,
                            fmt::format("control API on non-loopback address {} needs a bearer token", options_.address));
  }
  auto bound = listener_.bind(options_.address, options_.port);
  if (!bound) {
    return base::make_error(base::ErrorCode::kIo, fmt::format("control API: {}", bound.error().message));
  }
  port_ = *bound;
  listener_.start();
  return {};
}

void ControlServer::stop() {
  {
    std::lock_guard lock(stop_mutex_);
    stopping_ = true;
  }
  stop_wake_.notify_all();
  listener_.stop();
}

bool ControlServer::wait_stopping(std::chrono::milliseconds limit) const {
  std::unique_lock lock(stop_mutex_);
  return stop_wake_.wait_for(lock, limit, [this] { return stopping_; });
}

bool ControlServer::stopping() const {
  std::lock_guard lock(stop_mutex_);
  return stopping_;
}

void reply_json(httplib::Response& response, int status, const std::string& json_text) {
  response.status = status;
  response.set_content(json_text, "application/json");
}

}  // namespace cutover::control
