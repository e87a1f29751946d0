// TcpEndpoints: real TCP endpoints owned by the lab (E10): listening sockets on loopback
// addresses, accepted and closed at once by one thread, so a tcp health probe passes; closing
// one makes later probes fail with "connection refused", the way a killed service does.
// Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/result.h"

namespace cutover::lab {

class TcpEndpoints {
 public:
  TcpEndpoints();
  ~TcpEndpoints();
  TcpEndpoints(const TcpEndpoints&) = delete;
  TcpEndpoints& operator=(const TcpEndpoints&) = delete;

  // Listens on `address` (IPv4) and a port the kernel picks; returns the port.
  base::Result<std::uint16_t> open(const std::string& address);
  // Closes the listener on address:port; returns the CLOCK_MONOTONIC time (ns) of the close.
  base::Result<std::int64_t> close(const std::string& address, std::uint16_t port);

 private:
  void accept_loop();

  std::mutex mutex_;
  std::map<std::pair<std::string, std::uint16_t>, int> listeners_;  // guarded by mutex_
  std::vector<int> closing_;  // shut down, closed by the loop when it no longer polls them; guarded by mutex_
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace cutover::lab
