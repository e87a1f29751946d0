// The TCP event loop: one epoll per thread watching its listening socket, the stop signal
// and its connections. Level-triggered; every connection is serviced as
// read what is there -> answer every complete query -> write what the socket takes,
// and then takes its place in the loop's eviction order (net/tcp_eviction.h).
#include "net/tcp_listener.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <optional>
#include <unordered_map>

#include "net/tcp_eviction.h"
#include "net/tcp_framing.h"

namespace cutover::net {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kReadChunk = 16 * 1024;
// While this much output waits for a client that does not read, stop reading its queries.
constexpr std::size_t kMaxPendingOutput = 256 * 1024;
constexpr int kMaxEvents = 64;
// Accepts per wake-up, so connections accepted earlier are read between bursts of newcomers
// (a newcomer that sent its query is then answered before enough later arrivals make it the
// stalest).
constexpr int kMaxAcceptsPerWake = 32;
// With connections open, wake at least this often: the idle timeout depends on how many
// connections the other loops hold, which can change while this one sleeps.
constexpr long long kMaxWaitMs = 1000;
// Out of descriptors with nothing of this loop's to close: accept again after this long.
constexpr auto kAcceptPause = std::chrono::milliseconds(100);
// epoll data of the listening socket and the stop signal (connections carry their serial).
constexpr std::uint64_t kListenTag = 1;
constexpr std::uint64_t kStopTag = 2;

struct Connection {
  UniqueFd fd;
  // Tags its epoll events, so an event read for a closed connection is not applied to a new
  // one that got the same descriptor number in the same wake-up.
  std::uint64_t serial = 0;
  sockaddr_storage peer{};
  ClientKey client;
  MessageFramer framer;
  std::vector<std::uint8_t> output;
  std::size_t output_sent = 0;
  bool peer_closed = false;
  bool completed_query = false;  // a whole query was read at least once
  bool progressed = false;       // bytes moved during the current service()
  std::uint32_t interest = EPOLLIN;

  std::size_t pending() const { return output.size() - output_sent; }
  // kIdle once every query read so far is answered and written (net/tcp_eviction.h).
  ConnectionState state() const {
    return completed_query && framer.buffered() == 0 && pending() == 0 ? ConnectionState::kIdle
                                                                       : ConnectionState::kWaiting;
  }
};

class EventLoop {
 public:
  EventLoop(int listen_fd, const TcpOptions& options, const QueryHandler& handler, const StreamHandler& stream,
            const StopSignal& stop, TcpBudget& budget)
      : listen_fd_(listen_fd),
        options_(options),
        handler_(handler),
        stream_(stream),
        stop_(stop),
        budget_(budget),
        epoll_(::epoll_create1(EPOLL_CLOEXEC)) {}

  ~EventLoop() {
    for (auto& entry : connections_) release(*entry.second);
  }

  void run() {
    if (!epoll_.valid() || !watch(listen_fd_, EPOLLIN, kListenTag) || !watch(stop_.fd(), EPOLLIN, kStopTag)) return;
    epoll_event events[kMaxEvents];
    while (true) {
      int ready = ::epoll_wait(epoll_.get(), events, kMaxEvents, next_timeout_ms());
      for (int i = 0; i < ready; ++i) {
        std::uint64_t tag = events[i].data.u64;
        if (tag == kStopTag) return;
        if (tag == kListenTag) {
          accept_some();
          continue;
        }
        int fd = static_cast<int>(tag & 0xffffffffU);
        auto found = connections_.find(fd);
        if (found == connections_.end() || found->second->serial != tag) continue;
        if (!service(*found->second, events[i].events)) close(fd);
      }
      resume_accepting();
      expire_idle();
    }
  }

 private:
  bool watch(int fd, std::uint32_t events, std::uint64_t tag) {
    epoll_event event{};
    event.events = events;
    event.data.u64 = tag;
    return ::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &event) == 0;
  }

  void set_listen_interest(std::uint32_t events) {
    epoll_event event{};
    event.events = events;
    event.data.u64 = kListenTag;
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, listen_fd_, &event);
  }

  void accept_some() {
    for (int accepted = 0; accepted < kMaxAcceptsPerWake; ++accepted) {
      sockaddr_storage peer{};
      socklen_t length = sizeof peer;
      UniqueFd fd(::accept4(listen_fd_, reinterpret_cast<sockaddr*>(&peer), &length, SOCK_NONBLOCK | SOCK_CLOEXEC));
      if (!fd.valid()) {
        if (errno == EMFILE || errno == ENFILE) {
          // Out of descriptors: the stalest connection gives its own back, or accepting
          // pauses (the listening socket would otherwise wake this loop without end).
          if (auto victim = order_.victim()) {
            close(*victim);
            continue;
          }
          set_listen_interest(0);
          accept_paused_until_ = Clock::now() + kAcceptPause;
        }
        return;  // EAGAIN: the backlog is empty
      }
      ClientKey client = client_key(peer);
      if (!take_slot(client)) continue;  // refused: the descriptor closes here
      int one = 1;
      // Answers are written whole; Nagle would only hold the last one back.
      ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      auto connection = std::make_unique<Connection>();
      connection->peer = peer;
      connection->client = client;
      connection->serial = (++serials_ << 32) | static_cast<std::uint32_t>(fd.get());
      int raw = fd.get();
      connection->fd = std::move(fd);
      if (!watch(raw, EPOLLIN, connection->serial)) {
        release(*connection);
        continue;
      }
      Connection& added = *connection;
      connections_.emplace(raw, std::move(connection));
      order_.add(raw, Clock::now());
      // Most clients send the query with the handshake's last segment: answer it now rather
      // than one wake-up later.
      if (!service(added, EPOLLIN)) close(raw);
    }
  }

  // One slot of the budget for a connection of `client`, freeing this loop's stalest
  // connection when every slot is taken; false: refuse the connection.
  bool take_slot(const ClientKey& client) {
    auto taken = budget_.take(client);
    if (taken == TcpBudget::Take::kServerFull) {
      auto victim = order_.victim();
      if (!victim) return false;  // every slot is held by other loops' connections
      close(*victim);
      taken = budget_.take(client);
    }
    return taken == TcpBudget::Take::kTaken;
  }

  void resume_accepting() {
    if (!accept_paused_until_ || Clock::now() < *accept_paused_until_) return;
    accept_paused_until_.reset();
    set_listen_interest(EPOLLIN);
  }

  // False when the connection is finished and must be closed.
  bool service(Connection& connection, std::uint32_t events) {
    if ((events & EPOLLERR) != 0) return false;
    connection.progressed = false;
    if ((events & (EPOLLIN | EPOLLHUP)) != 0 && !connection.peer_closed && !read_input(connection)) return false;
    while (true) {
      std::size_t before = connection.framer.buffered();
      if (!answer_buffered(connection) || !flush(connection)) return false;
      if (connection.pending() > 0 || connection.framer.buffered() == before) break;
    }
    if (connection.peer_closed && connection.pending() == 0) return false;
    if (connection.progressed) order_.touch(connection.fd.get(), connection.state(), Clock::now());
    update_interest(connection);
    return true;
  }

  bool read_input(Connection& connection) {
    std::uint8_t chunk[kReadChunk];
    while (connection.pending() < kMaxPendingOutput) {
      ssize_t n = ::recv(connection.fd.get(), chunk, sizeof chunk, 0);
      if (n > 0) {
        connection.framer.append(std::span<const std::uint8_t>(chunk, static_cast<std::size_t>(n)));
        connection.progressed = true;
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
      connection.completed_query = true;
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
        connection.progressed = true;
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
    event.data.u64 = connection.serial;
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, connection.fd.get(), &event);
    connection.interest = wanted;
  }

  std::chrono::milliseconds idle_timeout() const {
    return idle_timeout_under_load(options_.idle_timeout, options_.busy_idle_timeout, budget_.open(),
                                   budget_.max_connections());
  }

  int next_timeout_ms() const {
    auto stalest = order_.stalest();
    if (!stalest && !accept_paused_until_) return -1;
    auto earliest = Clock::time_point::max();
    if (stalest) earliest = stalest->last_activity + idle_timeout();
    if (accept_paused_until_) earliest = std::min(earliest, *accept_paused_until_);
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(earliest - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(wait, 0, kMaxWaitMs));
  }

  // Closes, stalest first, every connection idle longer than the timeout allows; each close
  // frees a slot, which may lengthen the timeout for the next.
  void expire_idle() {
    auto now = Clock::now();
    while (auto stalest = order_.stalest()) {
      if (stalest->last_activity + idle_timeout() > now) return;
      close(stalest->id);
    }
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
    order_.remove(connection.fd.get());
    connection.fd.reset();
    budget_.give_back(connection.client);
  }

  int listen_fd_;
  const TcpOptions& options_;
  const QueryHandler& handler_;
  const StreamHandler& stream_;
  const StopSignal& stop_;
  TcpBudget& budget_;
  UniqueFd epoll_;
  std::unordered_map<int, std::unique_ptr<Connection>> connections_;
  EvictionOrder order_;
  std::uint64_t serials_ = 0;
  std::optional<Clock::time_point> accept_paused_until_;
};

}  // namespace

base::Result<std::unique_ptr<TcpListener>> TcpListener::open(const SocketAddress& address, std::size_t threads,
                                                             const TcpOptions& options, const QueryHandler& handler,
                                                             const StreamHandler& stream, const StopSignal& stop,
                                                             TcpBudget& budget) {
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
      new TcpListener(bound, std::move(sockets), options, handler, stream, stop, budget));
}

TcpListener::~TcpListener() { join(); }

void TcpListener::start() {
  for (const auto& socket : sockets_) {
    threads_.emplace_back([this, fd = socket.get()] {
      EventLoop loop(fd, options_, handler_, stream_, stop_, budget_);
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
