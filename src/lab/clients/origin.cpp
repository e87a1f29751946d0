// The HTTP/1.1 origin of the client cases (RFC 9112: persistent connections unless
// `Connection: close`; RFC 9110 §7.6.1 for the header).
#include "lab/clients/origin.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <fmt/format.h>

namespace cutover::lab {
namespace {

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string address_text(const sockaddr_storage& address) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
    return fmt::format("[{}]:{}", text, ntohs(v6.sin6_port));
  }
  const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
  ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
  return fmt::format("{}:{}", text, ntohs(v4.sin_port));
}

bool lower_contains(std::string text, const std::string& needle) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text.find(needle) != std::string::npos;
}

}  // namespace

std::string behaviour_text(OriginBehaviour behaviour) {
  switch (behaviour) {
    case OriginBehaviour::kCloseEach: return "close each";
    case OriginBehaviour::kKeepOpen: return "keeps the connection open";
    case OriginBehaviour::kIdleClose: return "closes idle connections";
    case OriginBehaviour::kDrainClose: return "Connection: close once drained";
  }
  return "?";
}

base::Result<std::unique_ptr<Origin>> Origin::start(const OriginOptions& options) {
  std::unique_ptr<Origin> origin(new Origin(options));
  sockaddr_storage address{};
  socklen_t length = 0;
  bool v6 = options.address.find(':') != std::string::npos;
  if (v6) {
    auto& a6 = reinterpret_cast<sockaddr_in6&>(address);
    a6.sin6_family = AF_INET6;
    a6.sin6_port = htons(options.port);
    if (::inet_pton(AF_INET6, options.address.c_str(), &a6.sin6_addr) != 1) {
      return base::make_error(base::ErrorCode::kInvalidArgument, "bad origin address " + options.address);
    }
    length = sizeof a6;
  } else {
    auto& a4 = reinterpret_cast<sockaddr_in&>(address);
    a4.sin_family = AF_INET;
    a4.sin_port = htons(options.port);
    if (::inet_pton(AF_INET, options.address.c_str(), &a4.sin_addr) != 1) {
      return base::make_error(base::ErrorCode::kInvalidArgument, "bad origin address " + options.address);
    }
    length = sizeof a4;
  }
  int fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  if (fd >= 0) ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), length) != 0 || ::listen(fd, 64) != 0) {
    std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return base::make_error(base::ErrorCode::kIo, fmt::format("origin {} on {}:{}: {}", options.identity,
                                                              options.address, options.port, why));
  }
  origin->listener_ = fd;
  origin->acceptor_ = std::thread([raw = origin.get()] { raw->accept_loop(); });
  return origin;
}

void Origin::accept_loop() {
  while (!stopping_) {
    pollfd wait{listener_, POLLIN, 0};
    if (::poll(&wait, 1, 100) <= 0) continue;
    sockaddr_storage peer{};
    socklen_t length = sizeof peer;
    int fd = ::accept4(listener_, reinterpret_cast<sockaddr*>(&peer), &length, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::lock_guard lock(mutex_);
    if (stopping_) {
      ::close(fd);
      break;
    }
    int connection = next_connection_++;
    open_fds_.push_back(fd);
    connections_.emplace_back([this, fd, client = address_text(peer), connection] { serve(fd, client, connection); });
  }
}

void Origin::serve(int fd, std::string client, int connection) {
  sockaddr_storage local{};
  socklen_t length = sizeof local;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length);
  std::string local_text = address_text(local);
  std::string pending;
  int on_connection = 0;
  auto idle_since = std::chrono::steady_clock::now();
  bool open = true;
  while (open && !stopping_) {
    std::size_t end = pending.find("\r\n\r\n");
    if (end == std::string::npos) {
      pollfd wait{fd, POLLIN, 0};
      int ready = ::poll(&wait, 1, 50);
      if (ready <= 0) {
        bool idle_expired = options_.behaviour == OriginBehaviour::kIdleClose && pending.empty() &&
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - idle_since).count() >=
                                options_.idle_seconds;
        if (idle_expired) break;
        continue;
      }
      char buffer[4096];
      ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
      if (got <= 0) break;
      pending.append(buffer, static_cast<std::size_t>(got));
      if (pending.size() > 65536) break;  // a lab client never sends this much header
      continue;
    }
    std::string head = pending.substr(0, end);
    pending.erase(0, end + 4);
    ++on_connection;
    bool http10 = head.find("HTTP/1.0") != std::string::npos;
    bool client_close = lower_contains(head, "connection: close") || (http10 && !lower_contains(head, "keep-alive"));
    bool close = client_close || options_.behaviour == OriginBehaviour::kCloseEach ||
                 (options_.behaviour == OriginBehaviour::kDrainClose && draining_);
    {
      std::lock_guard lock(mutex_);
      requests_.push_back({unix_now(), client, connection, on_connection});
    }
    std::string response = fmt::format(
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nX-Lab-Origin: {}\r\nX-Lab-Local: {}\r\n"
        "X-Lab-Connection-Request: {}\r\n{}\r\n{}",
        options_.identity.size(), options_.identity, local_text, on_connection,
        close ? "Connection: close\r\n" : (http10 ? "Connection: keep-alive\r\n" : ""), options_.identity);
    std::size_t sent = 0;
    while (sent < response.size()) {
      ssize_t wrote = ::send(fd, response.data() + sent, response.size() - sent, MSG_NOSIGNAL);
      if (wrote <= 0) break;
      sent += static_cast<std::size_t>(wrote);
    }
    open = !close && sent == response.size();
    idle_since = std::chrono::steady_clock::now();
  }
  std::lock_guard lock(mutex_);
  auto it = std::find(open_fds_.begin(), open_fds_.end(), fd);
  if (it != open_fds_.end()) open_fds_.erase(it);
  ::close(fd);
}

void Origin::stop() {
  if (stopping_.exchange(true)) return;
  if (acceptor_.joinable()) acceptor_.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mutex_);
    for (int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
    threads.swap(connections_);
  }
  for (auto& thread : threads) thread.join();
  if (listener_ >= 0) ::close(listener_);
  listener_ = -1;
}

std::vector<OriginRequest> Origin::requests() {
  std::lock_guard lock(mutex_);
  return requests_;
}

}  // namespace cutover::lab
