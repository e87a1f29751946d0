// One request: resolve (cache first), tell the pool the answer, reuse an idle connection or
// race new ones, exchange, classify the outcome.
#include "client/fetcher.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "net/deadline_io.h"

namespace cutover::client {
namespace {

using Steady = std::chrono::steady_clock;

std::string family_text(const net::SocketAddress& address) { return address.family() == AF_INET6 ? "IPv6" : "IPv4"; }

double milliseconds(std::chrono::nanoseconds span) { return static_cast<double>(span.count()) / 1e6; }

std::optional<net::SocketAddress> literal_address(const Url& url) {
  net::SocketAddress address;
  auto& v4 = reinterpret_cast<sockaddr_in&>(address.storage);
  auto& v6 = reinterpret_cast<sockaddr_in6&>(address.storage);
  if (::inet_pton(AF_INET, url.host.c_str(), &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    address.length = sizeof(sockaddr_in);
  } else if (::inet_pton(AF_INET6, url.host.c_str(), &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    address.length = sizeof(sockaddr_in6);
  } else {
    return std::nullopt;
  }
  return address.with_port(url.port);
}

}  // namespace

std::string fetch_error_text(FetchError error) {
  switch (error) {
    case FetchError::kNone: return "";
    case FetchError::kRefused: return "refused";
    case FetchError::kTimeout: return "timeout";
    case FetchError::kReset: return "reset";
    case FetchError::kTls: return "tls";
    case FetchError::kDns: return "dns";
    case FetchError::kOther: return "other";
  }
  return "other";
}

std::optional<std::string> FetchRecord::origin() const {
  if (!response) return std::nullopt;
  std::string_view body = response->body;
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.front()))) body.remove_prefix(1);
  while (!body.empty() && std::isspace(static_cast<unsigned char>(body.back()))) body.remove_suffix(1);
  return std::string(body);
}

Fetcher::Fetcher(ResolverConfig resolver, FetchOptions options, const base::Clock& clock, TraceSink trace)
    : options_(options),
      clock_(clock),
      trace_(trace),
      resolver_(std::move(resolver), clock, trace),
      pool_(clock, options.pool, trace) {}

bool Fetcher::exchange(const Url& url, PooledConnection& connection, FetchRecord& record, bool& stale) {
  stale = false;
  bool reused = connection.requests > 0;
  int fd = connection.socket.get();
  auto deadline = Steady::now() + options_.response_timeout;
  if (auto retire_at = pool_.deadline_of(connection)) {
    deadline = std::min(deadline, Steady::now() + (*retire_at - clock_.now()));
  }
  std::string request = build_get(url, options_.keep_alive);
  note(fmt::format("request {} on connection #{} to {}: GET {}", connection.requests + 1, connection.id,
                   net::format_address(connection.peer.storage), url.target));
  auto timed_out = [&] { return Steady::now() >= deadline; };
  if (!net::send_all(fd, reinterpret_cast<const std::uint8_t*>(request.data()), request.size(), deadline)) {
    if (timed_out()) {
      record.error = FetchError::kTimeout;
      record.detail = "timed out sending the request";
    } else {
      record.error = FetchError::kReset;
      record.detail = fmt::format("sending the request: {}", std::strerror(errno));
      stale = reused;
    }
    return false;
  }
  ResponseParser parser;
  char buffer[16384];
  while (parser.state() == ResponseParser::State::kNeedMore) {
    if (!net::wait_ready(fd, POLLIN, deadline)) {
      record.error = FetchError::kTimeout;
      record.detail = fmt::format("no complete response within {} ms", options_.response_timeout.count());
      return false;
    }
    ssize_t got = ::recv(fd, buffer, sizeof(buffer), 0);
    if (got < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      record.error = errno == ECONNRESET ? FetchError::kReset : FetchError::kOther;
      record.detail = fmt::format("reading the response: {}", std::strerror(errno));
      stale = reused && !parser.started();
      return false;
    }
    if (got == 0) {
      bool any = parser.started();
      if (parser.end_of_stream() == ResponseParser::State::kComplete) break;
      record.error = FetchError::kReset;
      record.detail = parser.error();
      stale = reused && !any;
      return false;
    }
    parser.feed(std::string_view(buffer, static_cast<std::size_t>(got)));
  }
  if (parser.state() == ResponseParser::State::kError) {
    record.error = FetchError::kOther;
    record.detail = parser.error();
    return false;
  }
  bool reusable = options_.keep_alive && parser.response().keep_alive && parser.leftover() == 0;
  record.response = parser.take_response();
  record.detail = fmt::format("HTTP {}", record.response->status);
  if (!record.response->reason.empty()) record.detail += " " + record.response->reason;
  ++connection.requests;
  note(fmt::format("response {} from {} on connection #{} ({} bytes, {})", record.detail,
                   net::format_address(connection.peer.storage), connection.id, record.response->body.size(),
                   reusable ? "kept alive" : "closing"));
  return reusable;
}

FetchRecord Fetcher::fetch(const Url& url) {
  FetchRecord record;
  record.time = std::chrono::duration<double>(clock_.wall_now().time_since_epoch()).count();
  std::string key = url.authority();
  std::vector<net::SocketAddress> ipv6;
  std::vector<net::SocketAddress> ipv4;
  if (auto literal = literal_address(url)) {
    (literal->family() == AF_INET6 ? ipv6 : ipv4).push_back(*literal);
  } else {
    note(fmt::format("lookup {}", url.host));
    Resolution resolution = resolver_.resolve(url.host);
    if (!resolution.ok()) {
      record.error = FetchError::kDns;
      record.detail = resolution.error;
      note(fmt::format("lookup {} failed: {}", url.host, resolution.error));
      return record;
    }
    ipv6 = resolution.addresses(url.port, AF_INET6);
    ipv4 = resolution.addresses(url.port, AF_INET);
    auto [g6, g4] = resolution.generations();
    std::vector<net::SocketAddress> all = ipv6;
    all.insert(all.end(), ipv4.begin(), ipv4.end());
    pool_.observe_answer(key, all, (g6 << 32) ^ g4);
  }

  if (options_.keep_alive) {
    if (auto idle = pool_.take_idle(key)) {
      PooledConnection connection = std::move(*idle);
      FetchRecord attempt = record;
      attempt.peer = net::format_address(connection.peer.storage);
      attempt.new_connection = false;
      bool stale = false;
      bool reusable = exchange(url, connection, attempt, stale);
      pool_.give_back(std::move(connection), reusable);
      if (!stale) return attempt;
      // RFC 9112 §9.3.1: a GET that failed on a reused connection before any response may be
      // retried on a new one (the origin had closed it as we sent).
      note(fmt::format("reused connection failed before a response ({}); retrying on a new one", attempt.detail));
    }
  }

  std::vector<net::SocketAddress> ordered = interleave_families(ipv6, ipv4);
  note(fmt::format("connect {}: {} address{}, attempt delay {} ms, connect timeout {} ms each", key, ordered.size(),
                   ordered.size() == 1 ? "" : "es",
                   options_.connect.attempt_delay.count(), options_.connect.connect_timeout.count()));
  ConnectResult connected = connect_happy_eyeballs(ordered, options_.connect, [this](const ConnectAttempt& attempt, bool started) {
    std::string address = net::format_address(attempt.address.storage);
    if (started) {
      note(fmt::format("connect attempt to {} ({}) at +{:.1f} ms", address, family_text(attempt.address),
                       milliseconds(attempt.started)));
    } else {
      note(fmt::format("connect attempt to {} {} after {:.1f} ms{}", address, attempt_outcome_text(attempt.outcome),
                       milliseconds(attempt.ended - attempt.started), attempt.error.empty() ? "" : ": " + attempt.error));
    }
  });
  record.attempts = connected.attempts;
  if (!connected.connected()) {
    bool all_refused = !connected.attempts.empty();
    bool any_timeout = false;
    std::string outcomes;
    for (const auto& attempt : connected.attempts) {
      all_refused = all_refused && attempt.outcome == AttemptOutcome::kRefused;
      any_timeout = any_timeout || attempt.outcome == AttemptOutcome::kTimedOut;
      outcomes += fmt::format("{}{} {}", outcomes.empty() ? "" : ", ", net::format_address(attempt.address.storage),
                              attempt_outcome_text(attempt.outcome));
    }
    record.error = all_refused ? FetchError::kRefused : any_timeout ? FetchError::kTimeout : FetchError::kOther;
    record.detail = ordered.empty() ? "no address to connect to" : "no address accepted: " + outcomes;
    return record;
  }
  PooledConnection connection = pool_.adopt(key, std::move(connected.socket), connected.peer);
  record.peer = net::format_address(connection.peer.storage);
  record.new_connection = true;
  bool stale = false;
  bool reusable = exchange(url, connection, record, stale);
  pool_.give_back(std::move(connection), reusable);
  return record;
}

}  // namespace cutover::client
