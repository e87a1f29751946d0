// Origin: a small HTTP/1.1 server of a client case that answers every request with its
// identity ("a", "b") as the body, plus the connection as it sees it (X-Lab-Local: the
// address the client connected to; X-Lab-Connection-Request: the request's number on its
// connection), and logs every request. Its socket is made in the calling thread's network
// namespace. Behaviours are those of E6 and E11 (docs/lab.md, "Client runtimes").
// Thread-safe: drain(), requests() and stop() may be called from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/result.h"

namespace cutover::lab {

enum class OriginBehaviour {
  kCloseEach,   // `Connection: close` on every response: a new connection per request
  kKeepOpen,    // keep-alive, never closes a connection itself
  kIdleClose,   // keep-alive, closes a connection idle for `idle_seconds`
  kDrainClose,  // keep-alive until drain(); after it, the next response says `Connection: close`
};
std::string behaviour_text(OriginBehaviour behaviour);

struct OriginOptions {
  std::string identity;
  std::string address;  // IPv4 or IPv6 literal
  std::uint16_t port = 80;
  OriginBehaviour behaviour = OriginBehaviour::kCloseEach;
  double idle_seconds = 0.3;
};

// One request as the origin saw it; `t` is unix time.
struct OriginRequest {
  double t = 0;
  std::string client;  // the client's address:port
  int connection = 0;  // numbered per origin from 1
  int on_connection = 0;
};

class Origin {
 public:
  static base::Result<std::unique_ptr<Origin>> start(const OriginOptions& options);
  ~Origin() { stop(); }
  Origin(const Origin&) = delete;
  Origin& operator=(const Origin&) = delete;

  void drain() { draining_ = true; }
  void stop();
  std::vector<OriginRequest> requests();
  const OriginOptions& options() const { return options_; }

 private:
  explicit Origin(OriginOptions options) : options_(std::move(options)) {}
  void accept_loop();
  void serve(int fd, std::string client, int connection);

  OriginOptions options_;
  int listener_ = -1;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> draining_{false};
  std::thread acceptor_;
  std::mutex mutex_;  // guards the fields below
  std::vector<std::thread> connections_;
  std::vector<int> open_fds_;
  std::vector<OriginRequest> requests_;
  int next_connection_ = 1;
};

}  // namespace cutover::lab
