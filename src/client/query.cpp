// UDP and TCP exchanges with poll()-bounded waits, reply matching and TC fallback.
#include "client/query.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include <fmt/format.h>

#include "base/random.h"
#include "net/deadline_io.h"
#include "net/socket.h"

namespace cutover::client {
namespace {

using base::Error;
using base::ErrorCode;
using base::make_error;
using base::Result;
using Clock = std::chrono::steady_clock;

Error io_error(const net::SocketAddress& server, std::string_view what) {
  return make_error(ErrorCode::kIo, fmt::format("{}: {}: {}", net::format_address(server.storage), what,
                                                std::strerror(errno)));
}

bool matches(const dns::Message& request, const dns::Message& reply) {
  if (!reply.header.qr || reply.header.id != request.header.id) return false;
  if (reply.questions.size() != request.questions.size()) return reply.questions.empty();  // FORMERR may drop it
  for (std::size_t i = 0; i < reply.questions.size(); ++i) {
    const auto& a = request.questions[i];
    const auto& b = reply.questions[i];
    if (!(a.name == b.name) || a.type != b.type || a.klass != b.klass) return false;
  }
  return true;
}

using Source = std::optional<net::SocketAddress>;

Result<net::UniqueFd> open_socket(const net::SocketAddress& server, int type, const Source& source) {
  int fd = ::socket(server.family(), type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return io_error(server, "socket");
  net::UniqueFd owned(fd);
  if (source && ::bind(fd, reinterpret_cast<const sockaddr*>(&source->storage), source->length) != 0) {
    return io_error(server, "bind to " + net::format_address(source->storage));
  }
  return owned;
}

Result<QueryResult> exchange_udp(const net::SocketAddress& server, const dns::Message& request,
                                 const std::vector<std::uint8_t>& wire, std::chrono::milliseconds timeout,
                                 const Source& source) {
  auto socket = open_socket(server, SOCK_DGRAM, source);
  if (!socket) return socket.error();
  int fd = socket->get();
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&server.storage), server.length) != 0) {
    return io_error(server, "connect");
  }
  auto start = Clock::now();
  auto deadline = start + timeout;
  if (::send(fd, wire.data(), wire.size(), 0) < 0) return io_error(server, "send");
  std::vector<std::uint8_t> buffer(65535);
  while (net::wait_ready(fd, POLLIN, deadline)) {
    ssize_t got = ::recv(fd, buffer.data(), buffer.size(), 0);
    if (got < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return io_error(server, "recv");  // e.g. ECONNREFUSED from an ICMP port unreachable
    }
    std::vector<std::uint8_t> reply_wire(buffer.begin(), buffer.begin() + got);
    auto reply = dns::parse_message(reply_wire);
    if (!reply || !matches(request, *reply)) continue;
    QueryResult result;
    result.round_trip = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    result.response = std::move(*reply);
    result.wire = std::move(reply_wire);
    return result;
  }
  return make_error(ErrorCode::kTimeout,
                    fmt::format("{}: no reply over UDP within {} ms", net::format_address(server.storage),
                                timeout.count()));
}

base::Status stream_tcp(const net::SocketAddress& server, const dns::Message& request,
                        const std::vector<std::uint8_t>& wire, std::chrono::milliseconds timeout,
                        const ReplyHandler& on_reply, const Source& source = std::nullopt) {
  auto socket = open_socket(server, SOCK_STREAM, source);
  if (!socket) return socket.error();
  int fd = socket->get();
  auto start = Clock::now();
  auto deadline = start + timeout;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&server.storage), server.length) != 0 && errno != EINPROGRESS) {
    return io_error(server, "connect over TCP");
  }
  if (!net::wait_ready(fd, POLLOUT, deadline)) {
    return make_error(ErrorCode::kTimeout, fmt::format("{}: TCP connect timed out", net::format_address(server.storage)));
  }
  int socket_error = 0;
  socklen_t length = sizeof(socket_error);
  ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &socket_error, &length);
  if (socket_error != 0) {
    errno = socket_error;
    return io_error(server, "connect over TCP");
  }
  std::vector<std::uint8_t> framed;
  framed.reserve(wire.size() + 2);
  framed.push_back(static_cast<std::uint8_t>(wire.size() >> 8));
  framed.push_back(static_cast<std::uint8_t>(wire.size()));
  framed.insert(framed.end(), wire.begin(), wire.end());
  auto timed_out = [&] {
    return make_error(ErrorCode::kTimeout, fmt::format("{}: no complete reply over TCP within {} ms",
                                                       net::format_address(server.storage), timeout.count()));
  };
  if (!net::send_all(fd, framed.data(), framed.size(), deadline)) return timed_out();
  while (true) {
    std::uint8_t length_bytes[2];
    if (!net::receive_exactly(fd, length_bytes, 2, deadline)) return timed_out();
    std::vector<std::uint8_t> reply_wire((std::size_t{length_bytes[0]} << 8) | length_bytes[1]);
    if (!net::receive_exactly(fd, reply_wire.data(), reply_wire.size(), deadline)) return timed_out();
    auto reply = dns::parse_message(reply_wire);
    if (!reply) {
      return make_error(ErrorCode::kMalformed, fmt::format("{}: malformed reply over TCP: {}",
                                                           net::format_address(server.storage), reply.error().message));
    }
    if (!matches(request, *reply)) continue;
    QueryResult result;
    result.round_trip = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    result.response = std::move(*reply);
    result.wire = std::move(reply_wire);
    result.over_tcp = true;
    auto done = on_reply(std::move(result));
    if (!done) return done.error();
    if (*done) return {};
    deadline = Clock::now() + timeout;
  }
}

Result<QueryResult> exchange_tcp(const net::SocketAddress& server, const dns::Message& request,
                                 const std::vector<std::uint8_t>& wire, std::chrono::milliseconds timeout,
                                 const Source& source) {
  std::optional<QueryResult> first;
  auto streamed = stream_tcp(
      server, request, wire, timeout,
      [&first](QueryResult reply) -> Result<bool> {
        first = std::move(reply);
        return true;
      },
      source);
  if (!streamed) return streamed.error();
  return std::move(*first);
}

}  // namespace

Result<net::SocketAddress> parse_server(std::string_view text, std::uint16_t default_port) {
  if (auto full = net::parse_socket_address(text)) return full;
  bool bracketed = text.size() > 2 && text.front() == '[' && text.back() == ']';
  std::string with_port = bracketed || text.find(':') == std::string_view::npos
                              ? fmt::format("{}:{}", text, default_port)
                              : fmt::format("[{}]:{}", text, default_port);
  return net::parse_socket_address(with_port);
}

Result<QueryResult> query(const net::SocketAddress& server, const dns::Name& name, dns::RRType type,
                          const QueryOptions& options) {
  dns::Message request;
  request.header.id = base::random_message_id();
  request.header.rd = options.recursion_desired;
  request.header.ad = options.authentic_data;
  request.questions.push_back(dns::Question{name, type, dns::RRClass::IN});
  if (options.edns) {
    dns::Edns edns;
    edns.udp_size = options.udp_size;
    request.edns = edns;
  }
  return exchange(server, request, options);
}

Result<QueryResult> exchange(const net::SocketAddress& server, const dns::Message& request,
                             const QueryOptions& options) {
  return exchange(server, request, dns::encode_message(request), options);
}

Result<QueryResult> exchange(const net::SocketAddress& server, const dns::Message& request,
                             const std::vector<std::uint8_t>& wire, const QueryOptions& options) {
  if (options.tcp) return exchange_tcp(server, request, wire, options.timeout, options.source);
  Result<QueryResult> last = make_error(ErrorCode::kInvalidArgument, "tries must be at least 1");
  for (int attempt = 0; attempt < options.tries; ++attempt) {
    last = exchange_udp(server, request, wire, options.timeout, options.source);
    if (last.ok() || last.error().code != ErrorCode::kTimeout) break;
  }
  if (last.ok() && last->response.header.tc && options.tcp_on_truncation) {
    return exchange_tcp(server, request, wire, options.timeout, options.source);
  }
  return last;
}

base::Status exchange_stream(const net::SocketAddress& server, const dns::Message& request,
                             const QueryOptions& options, const ReplyHandler& on_reply) {
  return stream_tcp(server, request, dns::encode_message(request), options.timeout, on_reply, options.source);
}

base::Status exchange_stream(const net::SocketAddress& server, const dns::Message& request,
                             const std::vector<std::uint8_t>& wire, const QueryOptions& options,
                             const ReplyHandler& on_reply) {
  return stream_tcp(server, request, wire, options.timeout, on_reply, options.source);
}

}  // namespace cutover::client
