// Opening, starting and stopping the listeners of a NetServer.
#include "net/server.h"

#include <sys/resource.h>

#include <algorithm>

namespace cutover::net {
namespace {

constexpr int kPortPicks = 16;
// Descriptors besides TCP connections: listening sockets, epoll sets, zone and journal
// files, the control API's connections.
constexpr rlim_t kOtherDescriptors = 256;

// A full TCP budget must not run the process out of descriptors (accept would fail with
// EMFILE while slots are free), so the soft limit is raised as far as the hard one allows.
void make_room_for(std::size_t connections) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  rlim_t wanted = static_cast<rlim_t>(connections) + kOtherDescriptors;
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= wanted) return;
  limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? wanted : std::min(wanted, limit.rlim_max);
  ::setrlimit(RLIMIT_NOFILE, &limit);
}

}  // namespace

base::Result<std::unique_ptr<NetServer>> NetServer::start(const NetOptions& options, QueryHandler handler) {
  make_room_for(options.tcp.max_connections);
  std::unique_ptr<NetServer> server(new NetServer(std::move(handler), options.tcp));
  server->stream_ = options.stream;
  server->batch_ = options.batch;
  for (const auto& address : options.listen) {
    // Port 0: the kernel picks a free UDP port, and TCP takes the same number, which a TCP
    // connection elsewhere may hold; then pick again, a bounded number of times.
    int attempts = address.port() == 0 ? kPortPicks : 1;
    for (int attempt = 1;; ++attempt) {
      auto udp = UdpListener::open(address, options.threads, server->handler_, server->batch_, server->stop_);
      if (!udp) return udp.error();
      auto tcp = TcpListener::open((*udp)->address(), options.threads, options.tcp, server->handler_, server->stream_,
                                   server->stop_, server->tcp_budget_);
      if (!tcp && attempt < attempts) continue;
      if (!tcp) return tcp.error();
      server->udp_.push_back(std::move(*udp));
      server->tcp_.push_back(std::move(*tcp));
      break;
    }
  }
  for (auto& listener : server->udp_) listener->start();
  for (auto& listener : server->tcp_) listener->start();
  return server;
}

NetServer::~NetServer() { stop(); }

void NetServer::stop() {
  stop_.raise();
  for (auto& listener : udp_) listener->wake();
  for (auto& listener : udp_) listener->join();
  for (auto& listener : tcp_) listener->join();
}

std::vector<SocketAddress> NetServer::addresses() const {
  std::vector<SocketAddress> out;
  for (const auto& listener : udp_) out.push_back(listener->address());
  return out;
}

}  // namespace cutover::net
