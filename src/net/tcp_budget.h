// TcpBudget: the connection slots every TCP listener of one server shares: how many
// connections are open in all, and how many each client holds (RFC 7766 §10: a server
// should limit the connections one client may keep open). A client is an IPv4 address or an
// IPv6 /64, the block one host is usually given. Thread-safe: the per-client counts sit
// behind the budget's mutex (taken on accept and close only); open() reads an atomic.
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace cutover::net {

// Whom a connection is counted against.
struct ClientKey {
  std::uint64_t prefix = 0;  // IPv4: the address; IPv6: the first 64 bits
  int family = 0;            // AF_INET (also for IPv4-mapped IPv6 addresses) or AF_INET6
  bool operator==(const ClientKey&) const = default;
};
ClientKey client_key(const sockaddr_storage& peer);

class TcpBudget {
 public:
  // `max_per_client` 0: no limit per client.
  TcpBudget(std::size_t max_connections, std::size_t max_per_client)
      : max_connections_(max_connections), max_per_client_(max_per_client) {}

  enum class Take { kTaken, kClientFull, kServerFull };
  // Takes one slot for a connection of `client`, unless that client holds its share already
  // or every slot is taken (then the caller may free one and try again).
  Take take(const ClientKey& client);
  // Returns the slot a taken connection of `client` held.
  void give_back(const ClientKey& client);

  std::size_t open() const { return open_.load(std::memory_order_relaxed); }
  std::size_t max_connections() const { return max_connections_; }

 private:
  struct KeyHash {
    std::size_t operator()(const ClientKey& key) const noexcept {
      return std::hash<std::uint64_t>()(key.prefix * 0x9e3779b97f4a7c15ULL + static_cast<unsigned>(key.family));
    }
  };

  const std::size_t max_connections_;
  const std::size_t max_per_client_;
  std::atomic<std::size_t> open_{0};
  std::mutex mutex_;
  std::unordered_map<ClientKey, std::size_t, KeyHash> per_client_;  // guarded by mutex_
};

}  // namespace cutover::net
