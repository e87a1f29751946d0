// The TCP event loop: one epoll per thread watching its listening socket, the stop signal
// and its connections. Level-triggered; every connection is serviced as
// read what is there -> answer every complete query -> write what the socket takes.
#include "net/tcp_listener.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <unordered_map>

#include "net/tcp_framing.h"

namespace cutover::net {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kReadChunk = 16 * 1024;
// While this much output waits for a client that does not read, stop reading its queries.
constexpr std::size_t kMaxPendingOutput = 256 * 1024;
constexpr int kMaxEvents = 64;

struct Connection {
  UniqueFd fd;
  sockaddr_storage peer{};
  MessageFramer framer;
  std::vector<std::uint8_t> output;
  std::size_t output_sent = 0;
  Clock::time_point deadline;
  bool peer_closed = false;
  std::uint32_t interest = EPOLLIN;

  std::size_t pending() const { return output.size() - output_sent; }
};

class EventLoop {
 public:
  EventLoop(int listen_fd, const TcpOptions& options, const QueryHandler& handler, const StreamHandler& stream,
            const StopSignal& stop, std::atomic<std::size_t>& open_connections)
      : listen_fd_(listen_fd),
        options_(options),
        handler_(handler),
        stream_(stream),
        stop_(stop),
        open_connections_(open_connections),
        epoll_(::epoll_create1(EPOLL_CLOEXEC)) {}

  ~EventLoop() {
    for (auto& entry : connections_) release(*entry.second);
  }

  void run() {
    if (!epoll_.valid() || !watch(listen_fd_, EPOLLIN) || !watch(stop_.fd(), EPOLLIN)) return;
    epoll_event events[kMaxEvents];
    while (true) {
      int ready = ::epoll_wait(epoll_.get(), events, kMaxEvents, next_timeout_ms());
      for (int i = 0; i < ready; ++i) {
        int fd = events[i].data.fd;
        if (fd == stop_.fd()) return;
        if (fd == listen_fd_) {
          accept_all();
          continue;
        }
        auto found = connections_.find(fd);
        if (found != connections_.end() && !service(*found->second, events[i].events)) close(fd);
      }
      expire_idle();
    }
  }

 private:
  bool watch(int fd, std::uint32_t events) {
    epoll_event event{};
    event.events = events;
    event.data.fd = fd;
    return ::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &event) == 0;
  }

  void accept_all() {
    while (true) {
      sockaddr_storage peer{};
      socklen_t length = sizeof peer;
      UniqueFd fd(::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &length, SOCK_NONBLOCK | SOCK_CLOEXEC));
      if (!fd.valid()) return;  // EAGAIN, or out of descriptors: retry on the next event
      if (open_connections_.fetch_add(1) >= options_.max_connections) {
        open_connections_.fetch_sub(1);
        continue;  // refused: the descriptor closes here
      }
      int one = 1;
      // Answers are written whole; Nagle would only hold the last one back.
      ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      auto connection = std::make_unique<Connection>();
      connection->peer = peer;
      connection->deadline = Clock::now() + options_.idle_timeout;
      int raw = fd.get();
      connection->fd = std::move(fd);
      if (!watch(raw, EPOLLIN)) {
        release(*connection);
        continue;
      }
      connections_.emplace(raw, std::move(connection));
    }
  }

  // False when the connection is finished and must be closed.
  bool service(Connection& connection, std::uint32_t events) {
    if ((events & EPOLLERR) != 0) return false;
    if ((events & (EPOLLIN | EPOLLHUP)) != 0 && !connection.peer_closed && !read_input(connection)) return false;
    while (true) {
      std::size_t before = connection.framer.buffered();
      if (!answer_buffered(connection) || !flush(connection)) return false;
      if (connection.pending() > 0 || connection.framer.buffered() == before) break;
    }
    if (connection.peer_closed && connection.pending() == 0) return false;
    update_interest(connection);
    return true;
  }

  bool read_input(Connection& connection) {
    std::uint8_t chunk[kReadChunk];
    while (connection.pending() < kMaxPendingOutput) {
      ssize_t n = ::recv(connection.fd.get(), chunk, sizeof chunk, 0);
      if (n > 0) {
        connection.framer.append(std::span<const std::uint8_t>(chunk, static_cast<std::size_t>(n)));
        connection.deadline = Clock::now() + options_.idle_timeout;
        continue;
      }
      if (n == 0) {
        connection.peer_closed = true;
        return true;
      }
      if (errno == EINTR) continue;
      return errno == EAGAIN || errno == EWOULDBLOCK;
    }
    return true;
  }

  // Answers complete queries in arrival order until output backs up; false on bad framing.
  bool answer_buffered(Connection& connection) {
    std::vector<std::uint8_t> response;
    while (connection.pending() < kMaxPendingOutput) {
      std::span<const std::uint8_t> query;
      auto next = connection.framer.next(query);
      if (next == MessageFramer::Next::kInvalid) return false;
      if (next == MessageFramer::Next::kNeedMore) return true;
      if (stream_) {
        std::vector<std::vector<std::uint8_t>> responses;
        if (stream_(query, connection.peer, responses)) {
          for (const auto& message : responses) append_framed(connection.output, message);
          continue;
        }
      }
      response.clear();
      if (handler_(query, Transport::kTcp, connection.peer, response) && !response.empty()) {
        append_framed(connection.output, response);
      }
    }
    return true;
  }

  bool flush(Connection& connection) {
    while (connection.pending() > 0) {
      ssize_t n = ::send(connection.fd.get(), connection.output.data() + connection.output_sent,
                         connection.pending(), MSG_NOSIGNAL);
      if (n > 0) {
        connection.output_sent += static_cast<std::size_t>(n);
        connection.deadline = Clock::now() + options_.idle_timeout;
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
      return false;
    }
    connection.output.clear();
    connection.output_sent = 0;
    return true;
  }

  void update_interest(Connection& connection) {
    std::uint32_t wanted = 0;
    if (!connection.peer_closed && connection.pending() < kMaxPendingOutput) wanted |= EPOLLIN;
    if (connection.pending() > 0) wanted |= EPOLLOUT;
    if (wanted == connection.interest) return;
    epoll_event event{};
    event.events = wanted;
    event.data.fd = connection.fd.get();
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, connection.fd.get(), &event);
    connection.interest = wanted;
  }

  int next_timeout_ms() const {
    if (connections_.empty()) return -1;
    auto earliest = Clock::time_point::max();
    for (const auto& entry : connections_) earliest = std::min(earliest, entry.second->deadline);
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(earliest - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(wait, 0, 60'000));
  }

  void expire_idle() {
    auto now = Clock::now();
    std::vector<int> expired;
    for (const auto& entry : connections_) {
      if (entry.second->deadline <= now) expired.push_back(entry.first);
    }
    for (int fd : expired) close(fd);
  }

  void close(int fd) {
    auto found = connections_.find(fd);
    if (found == connections_.end()) return;
    release(*found->second);
    connections_.erase(found);
  }

  // Closing the descriptor also removes it from the epoll set.
  void release(Connection& connection) {
    if (!connection.fd.valid()) return;
    connection.fd.reset();
    open_connections_.fetch_sub(1);
  }

  int listen_fd_;
  const TcpOptions& options_;
  const QueryHandler& handler_;
  const StreamHandler& stream_;
  const StopSignal& stop_;
  std::atomic<std::size_t>& open_connections_;
  UniqueFd epoll_;
  std::unordered_map<int, std::unique_ptr<Connection>> connections_;
};

}  // namespace

base::Result<std::unique_ptr<TcpListener>> TcpListener::open(const SocketAddress& address, std::size_t threads,
                                                             const TcpOptions& options, const QueryHandler& handler,
                                                             const StreamHandler& stream, const StopSignal& stop,
                                                             std::atomic<std::size_t>& open_connections) {
  std::vector<UniqueFd> sockets;
  SocketAddress bound = address;
  for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i) {
    auto socket = open_listening_socket(bound, SocketKind::kTcp, SocketOptions{.reuse_port = true});
    if (!socket) return socket.error();
    if (i == 0) {
      auto local = local_address(socket->get());
      if (!local) return local.error();
      bound = *local;
    }
    sockets.push_back(std::move(*socket));
  }
  return std::unique_ptr<TcpListener>(
      new TcpListener(bound, std::move(sockets), options, handler, stream, stop, open_connections));
}

TcpListener::~TcpListener() { join(); }

void TcpListener::start() {
  for (const auto& socket : sockets_) {
    threads_.emplace_back([this, fd = socket.get()] {
      EventLoop loop(fd, options_, handler_, stream_, stop_, open_connections_);
      loop.run();
    });
  }
}

void TcpListener::join() {
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  threads_.clear();
}

}  // namespace cutover::net
