// Shared pieces of the pool integration tests: scripted HTTP endpoints on 127.0.0.x, a
// pool zone and config, a server with its control API, and bounded polling helpers.
// Endpoints run on their own threads; each object is used by one test thread.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/dig.h"
#include "support/process.h"
#include "support/server.h"
#include "support/unbound.h"

namespace cutover::testing {

constexpr const char* kPoolZone = "pool.test.";

// A TCP listener on ADDRESS:port that answers every request with a scripted reply.
class HttpEndpoint {
 public:
  // backlog_only: listen but never accept (a full backlog is the closest thing to a
  // blackhole without root). Otherwise one thread answers one connection at a time behind a
  // deep backlog: a test with many pools on one endpoint has three servers' probes of every
  // pool arrive on the same tick, and a short backlog dropped their SYNs (a 1 s retransmit,
  // past the probe's timeout) so that a healthy endpoint looked down.
  HttpEndpoint(std::string address, std::uint16_t port = 0, bool backlog_only = false)
      : address_(std::move(address)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in bind_address{};
    bind_address.sin_family = AF_INET;
    bind_address.sin_port = htons(port);
    ::inet_pton(AF_INET, address_.c_str(), &bind_address.sin_addr);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&bind_address), sizeof(bind_address)) != 0 ||
        ::listen(fd_, backlog_only ? 0 : 1024) != 0) {
      ::close(fd_);
      throw std::runtime_error("cannot listen on " + address_);
    }
    socklen_t length = sizeof(bind_address);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&bind_address), &length);
    port_ = ntohs(bind_address.sin_port);
    if (!backlog_only) thread_ = std::thread([this] { serve(); });
  }
  ~HttpEndpoint() { stop(); }

  const std::string& address() const { return address_; }
  std::uint16_t port() const { return port_; }
  void set_reply(int status, std::string body) {
    std::lock_guard lock(mutex_);
    status_ = status;
    body_ = std::move(body);
    garbage_ = false;
  }
  void set_garbage() {
    std::lock_guard lock(mutex_);
    garbage_ = true;
  }
  // Closes the listener: later connections are refused.
  void stop() {
    stopping_ = true;
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  void serve() {
    while (!stopping_) {
      pollfd waiting{fd_, POLLIN, 0};
      if (::poll(&waiting, 1, 50) <= 0) continue;
      int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      std::string request;
      char buffer[2048];
      while (request.find("\r\n\r\n") == std::string::npos) {
        pollfd readable{client, POLLIN, 0};
        if (::poll(&readable, 1, 1000) <= 0) break;
        ssize_t got = ::read(client, buffer, sizeof(buffer));
        if (got <= 0) break;
        request.append(buffer, static_cast<std::size_t>(got));
      }
      std::string reply;
      {
        std::lock_guard lock(mutex_);
        reply = garbage_ ? std::string("SSH-2.0-OpenSSH_9.2 not http at all\r\n\x01\x02\x03")
                         : fmt::format("HTTP/1.1 {} Scripted\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
                                       status_, body_.size(), body_);
      }
      [[maybe_unused]] ssize_t sent = ::write(client, reply.data(), reply.size());
      ::close(client);
    }
  }

  std::string address_;
  std::uint16_t port_ = 0;
  int fd_ = -1;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  std::mutex mutex_;
  int status_ = 200;
  std::string body_ = "ok";
  bool garbage_ = false;
};

inline std::string pool_zone_text() {
  return fmt::format(
      "$ORIGIN {0}\n$TTL 300\n"
      "@    IN SOA ns1.{0} hostmaster.{0} 1 3600 600 86400 45\n"
      "@    IN NS  ns1\n"
      "ns1  IN A   192.0.2.53\n",
      kPoolZone);
}

// A directory with the pool zone and a config whose pools section is given by the test.
struct PoolDir {
  std::string dir = make_temp_dir("cutover-pools");
  std::string config_path = dir + "/cutover.yaml";

  PoolDir() { write_file(dir + "/pool.db", pool_zone_text()); }
  // `control`: the control mapping's keys after `listen` (", token: T").
  void write_config(const std::string& pools_yaml, const std::string& extra = "", const std::string& control = "") const {
    write_file(config_path, fmt::format("control: {{listen: \"127.0.0.1:0\"{}}}\n{}zones:\n  - origin: {}\n    file: "
                                        "pool.db\npools:\n{}",
                                        control, extra, kPoolZone, pools_yaml));
  }
};

// Minimal HTTP/1.1 client for the control API (GET/POST, Connection: close).
struct HttpReply {
  int status = 0;
  std::string body;
};

// `headers`: extra header lines, each ending in "\r\n" ("Authorization: Bearer T\r\n").
inline HttpReply http_request(std::uint16_t port, const std::string& method, const std::string& path,
                              const std::string& body = "", const std::string& headers = "") {
  HttpReply reply;
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  timeval timeout{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd);
    return reply;
  }
  std::string request =
      fmt::format("{} {} HTTP/1.1\r\nHost: 127.0.0.1\r\n{}Content-Length: {}\r\nConnection: close\r\n\r\n{}", method,
                  path, headers, body.size(), body);
  [[maybe_unused]] ssize_t sent = ::write(fd, request.data(), request.size());
  std::string text;
  char buffer[4096];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof(buffer))) > 0;) text.append(buffer, static_cast<std::size_t>(got));
  ::close(fd);
  if (text.rfind("HTTP/1.1 ", 0) == 0) reply.status = std::stoi(text.substr(9, 3));
  auto body_at = text.find("\r\n\r\n");
  if (body_at != std::string::npos) reply.body = text.substr(body_at + 4);
  return reply;
}

// The real server with a config and its control API on a kernel-chosen port.
class PoolServer {
 public:
  // `port` 0: a free port chosen here (tests that configure peers pick it themselves).
  explicit PoolServer(const PoolDir& dir, std::uint16_t port = 0, std::vector<std::string> extra_args = {}) {
    ServerSpec spec;
    spec.extra_args = std::move(extra_args);
    spec.config = dir.config_path;
    spec.probe_name = kPoolZone;
    // A fixed port: the harness would otherwise read the port from the first "listen
    // address=" in the log, which is the control API's line.
    spec.port = port != 0 ? port : free_port();
    server_ = std::make_unique<CutoverServer>(spec);
    if (!server_->wait_for_log("control.listen address=127.0.0.1:")) throw std::runtime_error("no control API");
    control_port_ = server_->control_port();
  }
  CutoverServer& server() { return *server_; }
  std::uint16_t dns_port() const { return server_->port(); }
  std::uint16_t control_port() const { return control_port_; }
  HttpReply post(const std::string& path) { return http_request(control_port_, "POST", path); }
  HttpReply get(const std::string& path) { return http_request(control_port_, "GET", path); }
  HttpReply put(const std::string& path, const std::string& body, const std::string& headers = "") {
    return http_request(control_port_, "PUT", path, body, headers);
  }

  // Sorted addresses answered for NAME TYPE.
  std::vector<std::string> addresses(const std::string& name, const std::string& type = "A") {
    DigResult result = dig(dns_port(), name, type);
    auto out = DigResult::rdatas(result.answer, type);
    std::sort(out.begin(), out.end());
    return out;
  }

  // Polls every 50 ms until the answer equals `expected` or `limit` passes.
  bool wait_for_answer(const std::string& name, const std::vector<std::string>& expected,
                       std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      if (addresses(name) == expected) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

  // Polls /status until `needle` appears or `limit` passes.
  bool wait_for_status(const std::string& needle, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < deadline) {
      if (get("/status").body.find(needle) != std::string::npos) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

 private:
  std::unique_ptr<CutoverServer> server_;
  std::uint16_t control_port_ = 0;
};

// One endpoint line of a pool's YAML.
inline std::string endpoint_yaml(const HttpEndpoint& endpoint, const std::string& extra = "") {
  return fmt::format("      - {{address: {}, port: {}{}}}\n", endpoint.address(), endpoint.port(), extra);
}

// A fast http check: I = 200 ms, T = 150 ms, F = 2, R = 1.
constexpr const char* kFastHttpCheck = "{type: http, path: /health, interval: 200ms, timeout: 150ms, fall: 2, rise: 1}";

}  // namespace cutover::testing
