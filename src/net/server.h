// NetServer: the UDP and TCP listeners for a list of addresses, started together and
// stopped together. start()/stop() and the destructor from one controlling thread; the
// handler is called concurrently from every listener thread.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "base/result.h"
#include "net/address.h"
#include "net/handler.h"
#include "net/socket.h"
#include "net/tcp_listener.h"
#include "net/udp_listener.h"

namespace cutover::net {

struct NetOptions {
  std::vector<SocketAddress> listen;
  std::size_t threads = 1;  // per address and transport
  TcpOptions tcp;
  StreamHandler stream;  // empty: every TCP query goes to the QueryHandler
  BatchHandler batch;    // empty: every UDP datagram goes to the QueryHandler
};

class NetServer {
 public:
  // Binds every address for UDP and TCP (the TCP socket takes the port UDP got when 0 was
  // asked for) and starts the threads. Fails, with nothing left running, if any bind fails.
  // Raises the process's soft descriptor limit (RLIMIT_NOFILE) towards its hard limit when
  // it leaves no room for tcp.max_connections.
  static base::Result<std::unique_ptr<NetServer>> start(const NetOptions& options, QueryHandler handler);
  ~NetServer();
  NetServer(const NetServer&) = delete;
  NetServer& operator=(const NetServer&) = delete;

  // Raises the stop signal and joins every thread. Idempotent.
  void stop();
  // The bound addresses, in the order given, with the real ports.
  std::vector<SocketAddress> addresses() const;

 private:
  NetServer(QueryHandler handler, const TcpOptions& tcp)
      : handler_(std::move(handler)), tcp_budget_(tcp.max_connections, tcp.max_connections_per_client) {}

  QueryHandler handler_;
  StreamHandler stream_;
  BatchHandler batch_;
  StopSignal stop_;
  TcpBudget tcp_budget_;
  std::vector<std::unique_ptr<UdpListener>> udp_;
  std::vector<std::unique_ptr<TcpListener>> tcp_;
};

}  // namespace cutover::net
