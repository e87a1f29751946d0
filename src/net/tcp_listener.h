// TcpListener: DNS over TCP per RFC 7766 on one address. N event-loop threads (epoll),
// each with its own SO_REUSEPORT socket; several queries per connection, answers written
// in order as soon as they are ready, an idle timeout that shortens as the server fills,
// and connection limits in all and per client, shared by all listeners of a server
// (TcpBudget). When every slot is taken, a newcomer takes the slot of the loop's stalest
// stalled or idle connection (EvictionOrder) instead of being refused (RFC 7766 §6.2.3,
// §10). start()/join() from one controlling thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

#include "base/result.h"
#include "net/address.h"
#include "net/handler.h"
#include "net/socket.h"
#include "net/tcp_budget.h"

namespace cutover::net {

struct TcpOptions {
  // A connection with no progress in either direction for this long is closed; this also
  // drops a client that sends half a message and stalls. With more than half of
  // max_connections in use the timeout falls linearly, to busy_idle_timeout when all are.
  std::chrono::milliseconds idle_timeout{10'000};
  std::chrono::milliseconds busy_idle_timeout{200};
  // Open connections across all TCP listeners of the server. A newcomer beyond this closes
  // the oldest stalled or idle connection of its event loop, or is refused if that loop has
  // none.
  std::size_t max_connections = 256;
  // Open connections one client (IPv4 address, IPv6 /64) may hold; one more is accepted
  // and closed at once. 0: no limit.
  std::size_t max_connections_per_client = 64;

  bool operator==(const TcpOptions&) const = default;
};

class TcpListener {
 public:
  // `handler`, `stream`, `stop` and `budget` must outlive the listener; `budget` counts
  // against `options`' limits.
  static base::Result<std::unique_ptr<TcpListener>> open(const SocketAddress& address, std::size_t threads,
                                                         const TcpOptions& options, const QueryHandler& handler,
                                                         const StreamHandler& stream, const StopSignal& stop,
                                                         TcpBudget& budget);
  ~TcpListener();

  void start();
  void join();
  const SocketAddress& address() const { return address_; }

 private:
  TcpListener(SocketAddress address, std::vector<UniqueFd> sockets, const TcpOptions& options,
              const QueryHandler& handler, const StreamHandler& stream, const StopSignal& stop,
              TcpBudget& budget)
      : address_(address),
        sockets_(std::move(sockets)),
        options_(options),
        handler_(handler),
        stream_(stream),
        stop_(stop),
        budget_(budget) {}

  SocketAddress address_;
  std::vector<UniqueFd> sockets_;
  TcpOptions options_;
  const QueryHandler& handler_;
  const StreamHandler& stream_;
  const StopSignal& stop_;
  TcpBudget& budget_;
  std::vector<std::thread> threads_;
};

}  // namespace cutover::net
