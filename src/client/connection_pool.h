// Kept-alive connections of the reference client, keyed by "host:port", that follow the DNS
// answer: each request tells the pool the answer it resolved (observe_answer); when the
// answer for a key changed and an address left it, the pool retires that address's
// connections, idle ones at once, ones in use at a deadline (`drain_deadline`) after which
// they are shut down and never reused. That bounds the reuse term R by the answer's TTL plus
// the deadline. Time comes from the injected base::Clock. Not thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "client/stub_resolver.h"
#include "net/address.h"
#include "net/socket.h"

namespace cutover::client {

struct PoolOptions {
  std::chrono::milliseconds drain_deadline{5000};  // for connections in use when retired
  std::chrono::milliseconds idle_timeout{60000};   // an idle connection older than this is closed
  std::size_t max_idle_per_key = 4;
};

struct PooledConnection {
  std::uint64_t id = 0;  // 1, 2, ... in the order they were opened
  std::string key;
  net::UniqueFd socket;
  net::SocketAddress peer;
  base::SteadyTime opened{};
  base::SteadyTime last_used{};
  int requests = 0;  // requests completed on it
  std::optional<base::SteadyTime> retire_at;  // set while in use: shut down then, never reused
};

class ConnectionPool {
 public:
  // `clock` must outlive the pool; `trace` gets one line per reuse and retirement.
  ConnectionPool(const base::Clock& clock, PoolOptions options = {}, TraceSink trace = {});

  // The addresses the name of `key` resolves to now; `generation` identifies the answer
  // (Resolution::generations(), folded). When it differs from the last one seen and an
  // address of the last answer is not in this one, that address's connections are retired.
  void observe_answer(const std::string& key, const std::vector<net::SocketAddress>& addresses,
                      std::uint64_t generation);

  // An idle connection for `key` that is still open (one the origin closed is dropped), or
  // nullopt. The connection is in use until given back.
  std::optional<PooledConnection> take_idle(const std::string& key);
  // Registers a new connection (in use) and returns it with its id.
  PooledConnection adopt(const std::string& key, net::UniqueFd socket, const net::SocketAddress& peer);
  // Ends a request on `connection`: kept idle when `reusable` and not retired, else closed.
  void give_back(PooledConnection connection, bool reusable);
  // The deadline by which `connection`'s request must end (its retire_at), if retired.
  std::optional<base::SteadyTime> deadline_of(const PooledConnection& connection) const;

  std::size_t idle_count() const;
  std::size_t retired_count() const { return retired_; }

 private:
  struct KeyState {
    std::vector<net::SocketAddress> addresses;
    std::uint64_t generation = 0;
    bool seen = false;
  };
  void note(const std::string& line) const {
    if (trace_) trace_(line);
  }

  const base::Clock& clock_;
  PoolOptions options_;
  TraceSink trace_;
  std::uint64_t next_id_ = 1;
  std::size_t retired_ = 0;
  std::map<std::string, KeyState> answers_;
  std::map<std::string, std::vector<PooledConnection>> idle_;
  // Connections in use: id -> (key, peer, retire_at). The caller holds the socket.
  struct InUse {
    std::string key;
    net::SocketAddress peer;
    std::optional<base::SteadyTime> retire_at;
  };
  std::map<std::uint64_t, InUse> in_use_;
};

// Whether two socket addresses have the same address and port.
bool same_endpoint(const net::SocketAddress& a, const net::SocketAddress& b);

}  // namespace cutover::client
