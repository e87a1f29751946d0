// UdpListener: answers datagrams on one address with N threads, each owning its own
// SO_REUSEPORT socket and moving up to a batch of messages per recvmmsg/sendmmsg call.
// start()/wake()/join() from one controlling thread; the handlers run on the worker threads.
#pragma once

#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

#include "base/result.h"
#include "net/address.h"
#include "net/handler.h"
#include "net/socket.h"

namespace cutover::net {

// Datagrams larger than this are dropped unread: no sane DNS query comes near it.
constexpr std::size_t kMaxUdpQuery = 4096;
constexpr int kUdpReceiveBuffer = 4 << 20;

class UdpListener {
 public:
  // Binds `threads` sockets (at least one) to `address`; with port 0 all share the port the
  // kernel picked for the first. A non-empty `batch` answers whole batches instead of
  // `handler`. `handler`, `batch` and `stop` must outlive the listener.
  static base::Result<std::unique_ptr<UdpListener>> open(const SocketAddress& address, std::size_t threads,
                                                         const QueryHandler& handler, const BatchHandler& batch,
                                                         const StopSignal& stop);
  ~UdpListener();  // joins the threads; the owner raises the stop signal and wakes them first

  void start();
  // After the stop signal is raised: ends the receive each idle thread is blocked in.
  void wake();
  void join();
  const SocketAddress& address() const { return address_; }

 private:
  UdpListener(SocketAddress address, std::vector<UniqueFd> sockets, const QueryHandler& handler,
              const BatchHandler& batch, const StopSignal& stop)
      : address_(address), sockets_(std::move(sockets)), handler_(handler), batch_(batch), stop_(stop) {}
  void serve(int fd) const;
  void answer(std::span<Datagram> datagrams) const;

  SocketAddress address_;
  std::vector<UniqueFd> sockets_;
  const QueryHandler& handler_;
  const BatchHandler& batch_;
  const StopSignal& stop_;
  std::vector<std::thread> threads_;
};

}  // namespace cutover::net
