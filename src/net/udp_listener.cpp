// The UDP worker loop: a blocking recvmmsg that takes every queued datagram once one is
// there -> the batch handler (or the handler per datagram) -> sendmmsg of the replies back
// to each sender. Under load and when idle alike a batch costs two system calls.
#include "net/udp_listener.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>

namespace cutover::net {
namespace {

constexpr std::size_t kBatch = 32;
// While datagrams keep arriving the loop looks at the stop signal every this many batches.
constexpr unsigned kStopCheckInterval = 64;
// An idle receive returns after this long at the latest, so a stop whose wake-up was
// missed still ends the thread.
constexpr timeval kReceiveTimeout = {1, 0};

// Buffers for one batch, allocated once per thread.
struct Batch {
  std::vector<std::uint8_t> storage = std::vector<std::uint8_t>(kBatch * kMaxUdpQuery);
  std::array<iovec, kBatch> in_iov{};
  std::array<sockaddr_storage, kBatch> peers{};
  std::array<mmsghdr, kBatch> in{};
  std::array<std::vector<std::uint8_t>, kBatch> responses;
  std::array<Datagram, kBatch> datagrams{};
  std::array<unsigned, kBatch> source{};  // datagrams[j] came in as in[source[j]]
  std::array<iovec, kBatch> out_iov{};
  std::array<mmsghdr, kBatch> out{};

  // Resets the headers the last receive used (all of them the first time).
  void prepare_receive(std::size_t used) {
    for (std::size_t i = 0; i < used; ++i) {
      in_iov[i] = {storage.data() + i * kMaxUdpQuery, kMaxUdpQuery};
      in[i] = {};
      in[i].msg_hdr.msg_name = &peers[i];
      in[i].msg_hdr.msg_namelen = sizeof peers[i];
      in[i].msg_hdr.msg_iov = &in_iov[i];
      in[i].msg_hdr.msg_iovlen = 1;
    }
  }
};

// The worker threads block in recvmmsg, so the socket must not be non-blocking.
base::Status make_blocking_with_timeout(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
      ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &kReceiveTimeout, sizeof kReceiveTimeout) != 0) {
    return base::make_error(base::ErrorCode::kIo, std::string("UDP socket options: ") + std::strerror(errno));
  }
  return {};
}

// recvmmsg and sendmmsg through syscall(2): glibc's wrappers are thread cancellation points
// and switch asynchronous cancellation on and off around every call, about 60 instructions a
// receive and send that a server at a low rate (one datagram per receive) pays per query.
// cutover never cancels a thread, so the plain system call is the same call.
int receive_many(int fd, mmsghdr* messages, unsigned count, int flags) {
  return static_cast<int>(::syscall(SYS_recvmmsg, fd, messages, count, flags, nullptr));
}

int send_many(int fd, mmsghdr* messages, unsigned count) {
  return static_cast<int>(::syscall(SYS_sendmmsg, fd, messages, count, 0));
}

bool raised(const StopSignal& stop) {
  pollfd signal{stop.fd(), POLLIN, 0};
  return ::poll(&signal, 1, 0) > 0 && signal.revents != 0;
}

// Sends every queued reply; the socket is blocking, so a full send buffer waits for room.
// A datagram the kernel refuses (e.g. unreachable) is skipped.
void send_all(int fd, std::array<mmsghdr, kBatch>& out, unsigned count) {
  unsigned sent = 0;
  while (sent < count) {
    int n = send_many(fd, out.data() + sent, count - sent);
    if (n > 0) {
      sent += static_cast<unsigned>(n);
    } else if (errno != EINTR) {
      ++sent;
    }
  }
}

}  // namespace

base::Result<std::unique_ptr<UdpListener>> UdpListener::open(const SocketAddress& address, std::size_t threads,
                                                             const QueryHandler& handler, const BatchHandler& batch,
                                                             const StopSignal& stop) {
  std::vector<UniqueFd> sockets;
  SocketAddress bound = address;
  SocketOptions options{.reuse_port = true, .receive_buffer = kUdpReceiveBuffer};
  for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i) {
    auto socket = open_listening_socket(bound, SocketKind::kUdp, options);
    if (!socket) return socket.error();
    if (auto blocking = make_blocking_with_timeout(socket->get()); !blocking) return blocking.error();
    if (i == 0) {
      auto local = local_address(socket->get());
      if (!local) return local.error();
      bound = *local;
    }
    sockets.push_back(std::move(*socket));
  }
  return std::unique_ptr<UdpListener>(new UdpListener(bound, std::move(sockets), handler, batch, stop));
}

UdpListener::~UdpListener() { join(); }

void UdpListener::start() {
  for (const auto& socket : sockets_) threads_.emplace_back([this, fd = socket.get()] { serve(fd); });
}

void UdpListener::wake() {
  // Ends a blocked receive: it returns 0 and the thread finds the stop signal raised.
  for (const auto& socket : sockets_) ::shutdown(socket.get(), SHUT_RD);
}

void UdpListener::join() {
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  threads_.clear();
}

void UdpListener::answer(std::span<Datagram> datagrams) const {
  if (batch_) {
    batch_(datagrams);
    return;
  }
  for (auto& datagram : datagrams) {
    datagram.reply = handler_(datagram.query, Transport::kUdp, *datagram.client, *datagram.response);
  }
}

void UdpListener::serve(int fd) const {
  auto batch = std::make_unique<Batch>();
  int received = static_cast<int>(kBatch);
  unsigned busy_batches = 0;
  while (true) {
    batch->prepare_receive(received > 0 ? static_cast<std::size_t>(received) : 0);
    // Blocks until one datagram is there (or wake(), or the timeout), then takes whatever
    // else is already queued without waiting.
    received = receive_many(fd, batch->in.data(), kBatch, MSG_WAITFORONE);
    if (received <= 0 || ++busy_batches % kStopCheckInterval == 0) {
      if (raised(stop_)) return;
      if (received <= 0) {  // timeout, EINTR
        if (batch_) batch_(std::span<Datagram>());  // idle: see BatchHandler
        continue;
      }
    }
    unsigned count = 0;
    for (int i = 0; i < received; ++i) {
      const msghdr& header = batch->in[i].msg_hdr;
      std::size_t length = batch->in[i].msg_len;
      if (length == 0 || (header.msg_flags & MSG_TRUNC) != 0) continue;
      batch->responses[i].clear();
      batch->datagrams[count] = {std::span<const std::uint8_t>(batch->storage.data() + i * kMaxUdpQuery, length),
                                 &batch->peers[i], &batch->responses[i], false};
      batch->source[count++] = static_cast<unsigned>(i);
    }
    if (count == 0) continue;  // every datagram was empty or truncated: nothing to answer
    answer(std::span<Datagram>(batch->datagrams.data(), count));
    unsigned replies = 0;
    for (unsigned j = 0; j < count; ++j) {
      const Datagram& datagram = batch->datagrams[j];
      if (!datagram.reply || datagram.response->empty()) continue;
      unsigned i = batch->source[j];
      batch->out_iov[replies] = {datagram.response->data(), datagram.response->size()};
      batch->out[replies] = {};
      batch->out[replies].msg_hdr.msg_name = &batch->peers[i];
      batch->out[replies].msg_hdr.msg_namelen = batch->in[i].msg_hdr.msg_namelen;
      batch->out[replies].msg_hdr.msg_iov = &batch->out_iov[replies];
      batch->out[replies].msg_hdr.msg_iovlen = 1;
      ++replies;
    }
    send_all(fd, batch->out, replies);
  }
}

}  // namespace cutover::net
