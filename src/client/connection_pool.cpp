// The pool's bookkeeping: answers per key, idle lists, retirement of addresses that left.
#include "client/connection_pool.h"

#include <netinet/in.h>
#include <poll.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

namespace cutover::client {
namespace {

std::string describe(const PooledConnection& connection) {
  return fmt::format("connection #{} to {}", connection.id, net::format_address(connection.peer.storage));
}

bool same_host(const net::SocketAddress& a, const net::SocketAddress& b) {
  auto x = net::address_bytes(a.storage);
  auto y = net::address_bytes(b.storage);
  return x.size() == y.size() && !x.empty() && std::equal(x.begin(), x.end(), y.begin());
}

// An idle HTTP connection has nothing to read: readable means the origin closed it (or sent
// something unasked), so it cannot carry a request.
bool still_open(int fd) {
  pollfd ready{fd, static_cast<short>(POLLIN | POLLRDHUP), 0};
  return ::poll(&ready, 1, 0) == 0;
}

}  // namespace

bool same_endpoint(const net::SocketAddress& a, const net::SocketAddress& b) {
  return same_host(a, b) && a.port() == b.port();
}

ConnectionPool::ConnectionPool(const base::Clock& clock, PoolOptions options, TraceSink trace)
    : clock_(clock), options_(options), trace_(std::move(trace)) {}

void ConnectionPool::observe_answer(const std::string& key, const std::vector<net::SocketAddress>& addresses,
                                    std::uint64_t generation) {
  KeyState& state = answers_[key];
  if (state.seen && state.generation == generation) return;
  std::vector<net::SocketAddress> gone;
  if (state.seen) {
    for (const auto& old : state.addresses) {
      bool kept = std::any_of(addresses.begin(), addresses.end(), [&](const auto& now) { return same_host(old, now); });
      if (!kept) gone.push_back(old);
    }
  }
  state = {addresses, generation, true};
  if (gone.empty()) return;
  note(fmt::format("pool {}: the answer changed; {} left it", key, format_hosts(gone)));
  auto left = [&](const net::SocketAddress& peer) {
    return std::any_of(gone.begin(), gone.end(), [&](const auto& address) { return same_host(address, peer); });
  };
  auto& idle = idle_[key];
  for (auto it = idle.begin(); it != idle.end();) {
    if (!left(it->peer)) {
      ++it;
      continue;
    }
    note(fmt::format("pool retire {} (idle, closed now; served {} requests)", describe(*it), it->requests));
    ++retired_;
    it = idle.erase(it);
  }
  auto now = clock_.now();
  for (auto& [id, use] : in_use_) {
    if (use.key != key || !left(use.peer) || use.retire_at) continue;
    use.retire_at = now + options_.drain_deadline;
    note(fmt::format("pool retire connection #{} to {} (in use: closed when its request ends, at the latest in {} ms)",
                     id, net::format_address(use.peer.storage), options_.drain_deadline.count()));
    ++retired_;
  }
}

std::optional<PooledConnection> ConnectionPool::take_idle(const std::string& key) {
  auto found = idle_.find(key);
  if (found == idle_.end()) return std::nullopt;
  auto& idle = found->second;
  auto now = clock_.now();
  while (!idle.empty()) {
    PooledConnection connection = std::move(idle.back());  // the most recently used
    idle.pop_back();
    if (now - connection.last_used > options_.idle_timeout) {
      note(fmt::format("pool close {}: idle longer than {} ms", describe(connection), options_.idle_timeout.count()));
      continue;
    }
    if (!still_open(connection.socket.get())) {
      note(fmt::format("pool drop {}: the origin closed it while idle", describe(connection)));
      continue;
    }
    note(fmt::format("pool reuse {} (request {} on it, idle {:.3f} s)", describe(connection), connection.requests + 1,
                     std::chrono::duration<double>(now - connection.last_used).count()));
    in_use_[connection.id] = {key, connection.peer, std::nullopt};
    return connection;
  }
  return std::nullopt;
}

PooledConnection ConnectionPool::adopt(const std::string& key, net::UniqueFd socket, const net::SocketAddress& peer) {
  PooledConnection connection;
  connection.id = next_id_++;
  connection.key = key;
  connection.socket = std::move(socket);
  connection.peer = peer;
  connection.opened = connection.last_used = clock_.now();
  in_use_[connection.id] = {key, peer, std::nullopt};
  return connection;
}

std::optional<base::SteadyTime> ConnectionPool::deadline_of(const PooledConnection& connection) const {
  auto it = in_use_.find(connection.id);
  if (it == in_use_.end()) return std::nullopt;
  return it->second.retire_at;
}

void ConnectionPool::give_back(PooledConnection connection, bool reusable) {
  bool retired = false;
  if (auto it = in_use_.find(connection.id); it != in_use_.end()) {
    retired = it->second.retire_at.has_value();
    in_use_.erase(it);
  }
  connection.last_used = clock_.now();
  if (retired) {
    note(fmt::format("pool close {}: retired while in use", describe(connection)));
    return;
  }
  if (!reusable) return;
  auto& idle = idle_[connection.key];
  if (idle.size() >= options_.max_idle_per_key) {
    note(fmt::format("pool close {}: {} idle connections already", describe(connection), idle.size()));
    return;
  }
  idle.push_back(std::move(connection));
}

std::size_t ConnectionPool::idle_count() const {
  std::size_t count = 0;
  for (const auto& [key, idle] : idle_) count += idle.size();
  return count;
}

}  // namespace cutover::client
