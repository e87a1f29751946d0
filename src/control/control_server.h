// ControlServer: the one HTTP/JSON control listener of `cutover serve`, shared by every
// module that offers an API (pools, lab, writes). Routes are added before start(); handlers
// run on the server's own threads and must be thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include <httplib.h>

#include "base/result.h"
#include "net/address.h"

namespace cutover::control {

struct ControlOptions {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;    // 0: the kernel picks one (see port())
  std::string bearer_token;  // required by every request when not empty
};

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

  // Binds and starts serving in a background thread. Fails when the address is taken, or
  // when a non-loopback address has no bearer token.
  base::Status start();
  void stop();
  std::uint16_t port() const { return port_; }

 private:
  ControlOptions options_;
  httplib::Server http_;
  std::thread thread_;
  std::uint16_t port_ = 0;
};

// Writes a JSON body with the given status code.
void reply_json(httplib::Response& response, int status, const std::string& json_text);

}  // namespace cutover::control
