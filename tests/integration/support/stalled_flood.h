// StalledFlood: an attacker's TCP connections to 127.0.0.1:PORT from given source addresses
// of 127.0.0.0/8, each of which sends one byte (half of a length prefix) and then nothing,
// the way issue 20's attack held every TCP slot of the server. One thread keeps them up:
// every connection the server closes is opened again (a bounded number per round), until
// stop() or the destructor. Counters are thread-safe; the rest is for one controlling thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace cutover::testing {

class StalledFlood {
 public:
  // `count` connections, spread evenly over `sources`.
  StalledFlood(std::uint16_t port, std::vector<std::string> sources, std::size_t count);
  ~StalledFlood() { stop(); }
  StalledFlood(const StalledFlood&) = delete;
  StalledFlood& operator=(const StalledFlood&) = delete;

  // Blocks until every connection has been opened and has sent its byte at least once, or
  // `timeout` passes (false).
  bool wait_until_all_sent(std::chrono::milliseconds timeout) const;
  // Blocks until the server has closed at least `count` connections in all, or `timeout`
  // passes (false). A connection can look established to the flood while it still waits in
  // the server's full accept queue, so "sent" does not mean the server has seen it.
  bool wait_until_closed(std::size_t count, std::chrono::milliseconds timeout) const;
  // Connections the server closed (refused, evicted or timed out), in total so far.
  std::size_t closed_by_server() const { return closed_by_server_.load(); }
  // Connections that have sent their byte and are not (yet seen as) closed.
  std::size_t holding() const { return holding_.load(); }
  void stop();

 private:
  void run();

  std::uint16_t port_;
  std::vector<std::string> sources_;
  std::size_t count_;
  std::atomic<bool> stopping_{false};
  std::atomic<std::size_t> first_sent_{0};
  std::atomic<std::size_t> closed_by_server_{0};
  std::atomic<std::size_t> holding_{0};
  std::thread thread_;
};

// Raises this process's soft descriptor limit to at least `wanted` (the hard limit too, as
// root may); false if that is not possible. Children started later inherit it.
bool raise_descriptor_limit(std::size_t wanted);

}  // namespace cutover::testing
