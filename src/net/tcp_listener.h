// TcpListener: DNS over TCP per RFC 7766 on one address. N event-loop threads (epoll),
// each with its own SO_REUSEPORT socket; several queries per connection, answers written
// in order as soon as they are ready, idle timeout, and a connection limit shared by all
// listeners of a server. start()/join() from one controlling thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

#include "base/result.h"
#include "net/address.h"
#include "net/handler.h"
#include "net/socket.h"

namespace cutover::net {

struct TcpOptions {
  // A connection with no progress in either direction for this long is closed; this also
  // drops a client that sends half a message and stalls.
  std::chrono::milliseconds idle_timeout{10'000};
  // Connections beyond this many (across all TCP listeners sharing the counter) are
  // accepted and closed at once.
  std::size_t max_connections = 256;
};

class TcpListener {
 public:
  // `handler`, `stream`, `stop` and `open_connections` must outlive the listener.
  static base::Result<std::unique_ptr<TcpListener>> open(const SocketAddress& address, std::size_t threads,
                                                         const TcpOptions& options, const QueryHandler& handler,
                                                         const StreamHandler& stream, const StopSignal& stop,
                                                         std::atomic<std::size_t>& open_connections);
  ~TcpListener();

  void start();
  void join();
  const SocketAddress& address() const { return address_; }

 private:
  TcpListener(SocketAddress address, std::vector<UniqueFd> sockets, const TcpOptions& options,
              const QueryHandler& handler, const StreamHandler& stream, const StopSignal& stop,
              std::atomic<std::size_t>& open_connections)
      : address_(address),
        sockets_(std::move(sockets)),
        options_(options),
        handler_(handler),
        stream_(stream),
        stop_(stop),
        open_connections_(open_connections) {}

  SocketAddress address_;
  std::vector<UniqueFd> sockets_;
  TcpOptions options_;
  const QueryHandler& handler_;
  const StreamHandler& stream_;
  const StopSignal& stop_;
  std::atomic<std::size_t>& open_connections_;
  std::vector<std::thread> threads_;
};

}  // namespace cutover::net
