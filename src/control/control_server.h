// ControlServer: the one HTTP/JSON control listener of `cutover serve` (and of `cutover
// monitor`), shared by every module that offers an API (pools, lab, writes, the console).
// Routes are added before start(); handlers run on the server's own threads and must be
// thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>

#include <httplib.h>

#include "base/result.h"
#include "control/http_thread.h"
#include "net/address.h"

namespace cutover::control {

struct ControlOptions {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;    // 0: the kernel picks one (see port())
  std::string bearer_token;  // required by every request when not empty, except as below
  // With a token: GET and HEAD from a loopback peer need none (reading is open on the host;
  // write methods and every request from elsewhere still need it). `cutover serve` sets this
  // (control.token is the token "for write actions", docs/console.md); the monitor does not.
  bool open_loopback_reads = false;
  // Write methods (anything but GET and HEAD) from a peer that is not loopback are refused
  // (403) unless this is set, token or not (control.remote-writes).
  bool remote_writes = false;
};

// What the listener does with one request, before routing: serve it, ask for the token
// (401), or refuse it from where it came (403). A pure function of the request, so the
// rules are tested without a non-loopback peer.
enum class Access { kAllow, kNeedsToken, kNotFromThisPeer };
struct AccessRequest {
  std::string_view method;         // "GET", "POST" ...
  std::string_view path;           // "/pools/web/endpoints/192.0.2.1/drain"
  std::string_view remote_addr;    // the peer's address as text
  std::string_view authorization;  // the Authorization header, empty when absent
};
// `public_paths`: the paths of get_public routes.
Access access_of(const ControlOptions& options, const std::set<std::string, std::less<>>& public_paths,
                 const AccessRequest& request);

// The only addresses the API may use without a token (net/address.h).
using net::is_loopback_address;

class ControlServer {
 public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

  explicit ControlServer(ControlOptions options);
  ~ControlServer();
  ControlServer(const ControlServer&) = delete;
  ControlServer& operator=(const ControlServer&) = delete;

  // Patterns are cpp-httplib regular expressions, e.g. R"(/pools/([^/]+)/drain)".
  void get(const std::string& pattern, Handler handler);
  void post(const std::string& pattern, Handler handler);
  void put(const std::string& pattern, Handler handler);
  void del(const std::string& pattern, Handler handler);
  void patch(const std::string& pattern, Handler handler);
  // A GET route anyone who reaches the port may read, token or not: for files that hold no
  // data (the console's page and scripts, which then ask for the token themselves).
  // `path` is matched exactly (no pattern).
  void get_public(const std::string& path, Handler handler);

  // Binds and starts serving in a background thread. Fails when the address is taken, or
  // when a non-loopback address has no bearer token.
  base::Status start();
  // Tells long-running handlers (event streams) to end, then stops serving and joins.
  void stop();
  std::uint16_t port() const { return port_; }

  // For handlers that stream: waits up to `limit`; true when stop() has begun (return then).
  bool wait_stopping(std::chrono::milliseconds limit) const;
  bool stopping() const;

 private:
  ControlOptions options_;
  std::shared_ptr<std::set<std::string, std::less<>>> public_paths_;
  mutable std::mutex stop_mutex_;  // guards stopping_
  mutable std::condition_variable stop_wake_;
  bool stopping_ = false;
  httplib::Server http_;
  HttpThread listener_{http_};  // after http_: stops it first
  std::uint16_t port_ = 0;
};

// Writes a JSON body with the given status code.
void reply_json(httplib::Response& response, int status, const std::string& json_text);

}  // namespace cutover::control
