// Small RAII wrappers over file descriptors used by the listeners: an owned descriptor,
// a bound listening socket, and a stop signal (eventfd) every loop thread polls.
// UniqueFd is move-only; StopSignal::raise() is thread-safe.
#pragma once

#include <utility>

#include "base/result.h"
#include "net/address.h"

namespace cutover::net {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) {
      reset();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void reset();

 private:
  int fd_ = -1;
};

enum class SocketKind { kUdp, kTcp };

struct SocketOptions {
  // Several sockets on one address, so each thread owns one and the kernel spreads load.
  bool reuse_port = true;
  // 0 leaves the kernel default.
  int receive_buffer = 0;
};

// A non-blocking socket bound to `address` (and listening, for TCP).
base::Result<UniqueFd> open_listening_socket(const SocketAddress& address, SocketKind kind,
                                             const SocketOptions& options);
// The address a bound socket actually has (its port when 0 was asked for).
base::Result<SocketAddress> local_address(int fd);

// Level-triggered "please stop" flag visible to poll/epoll in every loop thread.
class StopSignal {
 public:
  StopSignal();
  int fd() const { return fd_.get(); }
  void raise();

 private:
  UniqueFd fd_;
};

}  // namespace cutover::net
