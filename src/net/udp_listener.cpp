// The UDP worker loop: recvmmsg batch -> handler per datagram -> sendmmsg of the replies
// back to each sender; poll(socket, stop) only when the socket is empty, so under load a
// batch costs two system calls, not three.
#include "net/udp_listener.h"

#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>

namespace cutover::net {
namespace {

constexpr std::size_t kBatch = 32;
// While datagrams keep arriving the loop never sleeps in poll; it looks at the stop signal
// every this many batches instead.
constexpr unsigned kStopCheckInterval = 64;

// Buffers for one batch, allocated once per thread.
struct Batch {
  std::vector<std::uint8_t> storage = std::vector<std::uint8_t>(kBatch * kMaxUdpQuery);
  std::array<iovec, kBatch> in_iov{};
  std::array<sockaddr_storage, kBatch> peers{};
  std::array<mmsghdr, kBatch> in{};
  std::array<std::vector<std::uint8_t>, kBatch> responses;
  std::array<iovec, kBatch> out_iov{};
  std::array<mmsghdr, kBatch> out{};

  void prepare_receive() {
    for (std::size_t i = 0; i < kBatch; ++i) {
      in_iov[i] = {storage.data() + i * kMaxUdpQuery, kMaxUdpQuery};
      in[i] = {};
      in[i].msg_hdr.msg_name = &peers[i];
      in[i].msg_hdr.msg_namelen = sizeof peers[i];
      in[i].msg_hdr.msg_iov = &in_iov[i];
      in[i].msg_hdr.msg_iovlen = 1;
    }
  }
};

// Sends every queued reply; a datagram the kernel refuses (e.g. unreachable) is skipped.
void send_all(int fd, std::array<mmsghdr, kBatch>& out, unsigned count) {
  unsigned sent = 0;
  while (sent < count) {
    int n = ::sendmmsg(fd, out.data() + sent, count - sent, 0);
    if (n > 0) {
      sent += static_cast<unsigned>(n);
    } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
      pollfd writable{fd, POLLOUT, 0};
      ::poll(&writable, 1, 100);
    } else if (errno != EINTR) {
      ++sent;
    }
  }
}

}  // namespace

base::Result<std::unique_ptr<UdpListener>> UdpListener::open(const SocketAddress& address, std::size_t threads,
                                                             const QueryHandler& handler, const StopSignal& stop) {
  std::vector<UniqueFd> sockets;
  SocketAddress bound = address;
  SocketOptions options{.reuse_port = true, .receive_buffer = kUdpReceiveBuffer};
  for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i) {
    auto socket = open_listening_socket(bound, SocketKind::kUdp, options);
    if (!socket) return socket.error();
    if (i == 0) {
      auto local = local_address(socket->get());
      if (!local) return local.error();
      bound = *local;
    }
    sockets.push_back(std::move(*socket));
  }
  return std::unique_ptr<UdpListener>(new UdpListener(bound, std::move(sockets), handler, stop));
}

UdpListener::~UdpListener() { join(); }

void UdpListener::start() {
  for (const auto& socket : sockets_) threads_.emplace_back([this, fd = socket.get()] { serve(fd); });
}

void UdpListener::join() {
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  threads_.clear();
}

void UdpListener::serve(int fd) const {
  auto batch = std::make_unique<Batch>();
  pollfd fds[2] = {{fd, POLLIN, 0}, {stop_.fd(), POLLIN, 0}};
  unsigned busy_batches = 0;
  while (true) {
    batch->prepare_receive();
    int received = ::recvmmsg(fd, batch->in.data(), kBatch, MSG_DONTWAIT, nullptr);
    if (received <= 0 || ++busy_batches % kStopCheckInterval == 0) {
      // Empty socket: sleep until a datagram or the stop signal. Busy: just look at the signal.
      if (::poll(fds, 2, received <= 0 ? -1 : 0) < 0) continue;  // EINTR: try again
      if (fds[1].revents != 0) return;
      if (received <= 0) continue;
    }
    unsigned replies = 0;
    for (int i = 0; i < received; ++i) {
      const msghdr& header = batch->in[i].msg_hdr;
      std::size_t length = batch->in[i].msg_len;
      if (length == 0 || (header.msg_flags & MSG_TRUNC) != 0) continue;
      auto& response = batch->responses[i];
      response.clear();
      std::span<const std::uint8_t> query(batch->storage.data() + i * kMaxUdpQuery, length);
      if (!handler_(query, Transport::kUdp, batch->peers[i], response) || response.empty()) continue;
      batch->out_iov[replies] = {response.data(), response.size()};
      batch->out[replies] = {};
      batch->out[replies].msg_hdr.msg_name = &batch->peers[i];
      batch->out[replies].msg_hdr.msg_namelen = header.msg_namelen;
      batch->out[replies].msg_hdr.msg_iov = &batch->out_iov[replies];
      batch->out[replies].msg_hdr.msg_iovlen = 1;
      ++replies;
    }
    send_all(fd, batch->out, replies);
  }
}

}  // namespace cutover::net
