// The flood's connections are non-blocking sockets watched with one poll(2) set.
#include "support/stalled_flood.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

namespace cutover::testing {
namespace {

// Reopened connections per round, and a round's length: the attacker reconnects at up to
// 2,000 connections a second, without taking a whole core of the shared machine. Closes are
// seen at once; only reopening waits for the next round.
constexpr std::size_t kReopensPerRound = 20;
constexpr auto kRound = std::chrono::milliseconds(10);

enum class Phase { kClosed, kConnecting, kHolding };

struct Slot {
  int fd = -1;
  Phase phase = Phase::kClosed;
  bool sent_once = false;
};

int open_connection(const std::string& source, std::uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in local{};
  local.sin_family = AF_INET;
  ::inet_pton(AF_INET, source.c_str(), &local.sin_addr);
  sockaddr_in server{};
  server.sin_family = AF_INET;
  server.sin_port = htons(port);
  server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&local), sizeof local) != 0 ||
      (::connect(fd, reinterpret_cast<const sockaddr*>(&server), sizeof server) != 0 && errno != EINPROGRESS)) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

StalledFlood::StalledFlood(std::uint16_t port, std::vector<std::string> sources, std::size_t count)
    : port_(port), sources_(std::move(sources)), count_(count) {
  thread_ = std::thread([this] { run(); });
}

bool StalledFlood::wait_until_all_sent(std::chrono::milliseconds timeout) const {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (first_sent_.load() < count_) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

bool StalledFlood::wait_until_closed(std::size_t count, std::chrono::milliseconds timeout) const {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (closed_by_server_.load() < count) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

void StalledFlood::stop() {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
}

void StalledFlood::run() {
  std::vector<Slot> slots(count_);
  std::vector<pollfd> polled;
  std::vector<std::size_t> polled_slot;
  bool first_round = true;
  auto next_round = std::chrono::steady_clock::now();
  while (!stopping_.load()) {
    // Open what is closed: everything in the first round, then a bounded number per round.
    auto now = std::chrono::steady_clock::now();
    if (now >= next_round) {
      std::size_t reopened = 0;
      for (std::size_t i = 0; i < slots.size(); ++i) {
        if (slots[i].phase != Phase::kClosed) continue;
        if (!first_round && reopened == kReopensPerRound) break;
        slots[i].fd = open_connection(sources_[i % sources_.size()], port_);
        if (slots[i].fd >= 0) slots[i].phase = Phase::kConnecting;
        ++reopened;
      }
      first_round = false;
      next_round = now + kRound;
    }
    polled.clear();
    polled_slot.clear();
    for (std::size_t i = 0; i < slots.size(); ++i) {
      if (slots[i].phase == Phase::kClosed) continue;
      polled.push_back({slots[i].fd, static_cast<short>(slots[i].phase == Phase::kConnecting ? POLLOUT : POLLIN), 0});
      polled_slot.push_back(i);
    }
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(next_round - std::chrono::steady_clock::now());
    int wait_ms = static_cast<int>(std::clamp<long long>(wait.count(), 0, kRound.count()));
    if (::poll(polled.data(), polled.size(), wait_ms) < 0 && errno != EINTR) return;
    for (std::size_t k = 0; k < polled.size(); ++k) {
      Slot& slot = slots[polled_slot[k]];
      short events = polled[k].revents;
      if (events == 0) continue;
      bool closed = false;
      if (slot.phase == Phase::kConnecting) {
        int error = 0;
        socklen_t length = sizeof error;
        ::getsockopt(slot.fd, SOL_SOCKET, SO_ERROR, &error, &length);
        std::uint8_t first_byte = 0;  // the high byte of a length prefix; the rest never comes
        if (error == 0 && ::send(slot.fd, &first_byte, 1, MSG_NOSIGNAL) == 1) {
          slot.phase = Phase::kHolding;
          holding_.fetch_add(1);
          if (!slot.sent_once) {
            slot.sent_once = true;
            first_sent_.fetch_add(1);
          }
        } else {
          closed = true;  // refused before the byte went out
        }
      } else {
        std::uint8_t byte;
        ssize_t n = ::recv(slot.fd, &byte, 1, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
          closed = true;
          holding_.fetch_sub(1);
        }
      }
      if (closed) {
        closed_by_server_.fetch_add(1);
        ::close(slot.fd);
        slot = Slot{-1, Phase::kClosed, slot.sent_once};
      }
    }
  }
  for (auto& slot : slots) {
    if (slot.fd >= 0) ::close(slot.fd);
  }
}

bool raise_descriptor_limit(std::size_t wanted) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  auto want = static_cast<rlim_t>(wanted);
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur >= want) return true;
  if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < want) limit.rlim_max = want;  // root only
  limit.rlim_cur = want;
  return ::setrlimit(RLIMIT_NOFILE, &limit) == 0;
}

}  // namespace cutover::testing
