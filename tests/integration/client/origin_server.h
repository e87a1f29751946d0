// A minimal HTTP/1.1 origin for the reference-client tests: listens on one loopback address,
// answers every GET with its identity as the body (Content-Length, or chunked), keeps
// connections alive unless told to close, and counts connections and requests. One thread
// polls the listener and every connection; stopped and joined by the destructor (bounded:
// it also stops by itself after five minutes).
#pragma once

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "net/address.h"
#include "net/socket.h"

namespace cutover::testing {

class OriginServer {
 public:
  struct Options {
    bool chunked = false;          // Transfer-Encoding: chunked instead of Content-Length
    bool connection_close = false;  // Connection: close on every response, then close
  };

  // Binds `host:port` (port 0: the kernel picks). Throws std::runtime_error when it cannot.
  OriginServer(const std::string& host, std::uint16_t port, std::string identity, Options options)
      : identity_(std::move(identity)), options_(options) {
    auto address = net::parse_socket_address(fmt::format("{}:{}", host, port));
    if (!address) throw std::runtime_error(address.error().message);
    net::SocketOptions socket_options;
    socket_options.reuse_port = false;
    auto bound = net::open_listening_socket(*address, net::SocketKind::kTcp, socket_options);
    if (!bound) throw std::runtime_error(bound.error().message);
    port_ = net::local_address(bound->get())->port();
    listener_ = std::move(*bound);
    thread_ = std::thread([this] { serve(); });
  }
  OriginServer(const std::string& host, std::uint16_t port, std::string identity)
      : OriginServer(host, port, std::move(identity), Options{}) {}
  ~OriginServer() {
    stop_ = true;
    thread_.join();
  }
  OriginServer(const OriginServer&) = delete;
  OriginServer& operator=(const OriginServer&) = delete;

  std::uint16_t port() const { return port_; }
  int connections() const { return connections_.load(); }
  int requests() const { return requests_.load(); }
  // Closes every open connection now (an origin that drops its idle connections).
  void close_connections() { close_requested_ = true; }

 private:
  struct Connection {
    net::UniqueFd socket;
    std::string pending;
  };

  void respond(Connection& connection) {
    for (std::size_t end; (end = connection.pending.find("\r\n\r\n")) != std::string::npos;) {
      connection.pending.erase(0, end + 4);
      ++requests_;
      std::string body = identity_ + "\n";
      std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n";
      if (options_.connection_close) head += "Connection: close\r\n";
      std::string reply;
      if (options_.chunked) {
        reply = head + "Transfer-Encoding: chunked\r\n\r\n" +
                fmt::format("{:x}\r\n{}\r\n0\r\n\r\n", body.size(), body);
      } else {
        reply = head + fmt::format("Content-Length: {}\r\n\r\n{}", body.size(), body);
      }
      ::send(connection.socket.get(), reply.data(), reply.size(), MSG_NOSIGNAL);
      if (options_.connection_close) {
        connection.socket.reset();
        return;
      }
    }
  }

  void serve() {
    std::vector<Connection> open;
    auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    while (!stop_ && std::chrono::steady_clock::now() < give_up) {
      if (close_requested_.exchange(false)) open.clear();
      std::vector<pollfd> fds{{listener_.get(), POLLIN, 0}};
      for (const auto& connection : open) fds.push_back({connection.socket.get(), POLLIN, 0});
      if (::poll(fds.data(), fds.size(), 50) <= 0) continue;
      if ((fds[0].revents & POLLIN) != 0) {
        int fd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC);
        if (fd >= 0) {
          ++connections_;
          open.push_back({net::UniqueFd(fd), {}});
        }
      }
      for (std::size_t i = 1; i < fds.size(); ++i) {
        if (fds[i].revents == 0) continue;
        Connection& connection = open[i - 1];
        char buffer[4096];
        ssize_t got = ::recv(connection.socket.get(), buffer, sizeof(buffer), 0);
        if (got <= 0) {
          connection.socket.reset();
          continue;
        }
        connection.pending.append(buffer, static_cast<std::size_t>(got));
        respond(connection);
      }
      std::erase_if(open, [](const Connection& connection) { return !connection.socket.valid(); });
    }
  }

  std::string identity_;
  Options options_;
  net::UniqueFd listener_;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<bool> close_requested_{false};
  std::atomic<int> connections_{0};
  std::atomic<int> requests_{0};
  std::thread thread_;
};

}  // namespace cutover::testing
