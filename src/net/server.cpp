// Opening, starting and stopping the listeners of a NetServer.
#include "net/server.h"

namespace cutover::net {
namespace {

constexpr int kPortPicks = 16;

}  // namespace

base::Result<std::unique_ptr<NetServer>> NetServer::start(const NetOptions& options, QueryHandler handler) {
  std::unique_ptr<NetServer> server(new NetServer(std::move(handler)));
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
                                   server->stop_, server->open_connections_);
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
