// HttpThread: runs one cpp-httplib server on its own thread, bound to its address and port
// alone, and stops it at any moment, even before the thread has begun listening.
//
// Two things cpp-httplib does not do by itself:
// - Its default socket options set SO_REUSEPORT, so a second process binding the same
//   address and port succeeds and the kernel splits connections between the two (a second
//   `cutover serve` would answer half of the first one's control requests). bind() sets
//   SO_REUSEADDR only (restart over TIME_WAIT), so a taken port is an error.
// - Server::stop() does nothing until the listening thread has marked the server running;
//   a stop() that comes first would leave join() waiting forever. stop() waits for the
//   thread to be listening (or to have returned) before stopping it.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include <httplib.h>

#include "base/result.h"

namespace cutover::control {

class HttpThread {
 public:
  // `http` must outlive this object; routes are added to it before start().
  explicit HttpThread(httplib::Server& http);
  ~HttpThread();
  HttpThread(const HttpThread&) = delete;
  HttpThread& operator=(const HttpThread&) = delete;

  // Binds `address`:`port` (0: the kernel picks); the port bound, or an error when it is taken.
  base::Result<std::uint16_t> bind(const std::string& address, std::uint16_t port);
  // Serves on a new thread; call once, after a successful bind().
  void start();
  // Stops serving and joins; idempotent.
  void stop();

 private:
  httplib::Server& http_;
  std::thread thread_;
  std::atomic<bool> returned_{false};
};

}  // namespace cutover::control
