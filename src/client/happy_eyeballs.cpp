// The attempt loop of RFC 8305 §5 over non-blocking sockets: start, wait (poll) for the
// first of "an attempt connected", "an attempt failed", "an attempt timed out" and "the next
// attempt is due".
#include "client/happy_eyeballs.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace cutover::client {
namespace {

using Clock = std::chrono::steady_clock;

// RFC 8305 §5: a new attempt never starts within 10 ms of the previous one, even when that
// one has already failed (a refused attempt lets the next start at once otherwise).
constexpr std::chrono::milliseconds kMinimumSpacing{10};

struct Pending {
  net::UniqueFd socket;
  std::size_t attempt = 0;  // index into ConnectResult::attempts
  Clock::time_point deadline;
};

AttemptOutcome outcome_of(int error) {
  if (error == ECONNREFUSED) return AttemptOutcome::kRefused;
  if (error == ETIMEDOUT) return AttemptOutcome::kTimedOut;
  return AttemptOutcome::kFailed;
}

}  // namespace

std::string attempt_outcome_text(AttemptOutcome outcome) {
  switch (outcome) {
    case AttemptOutcome::kConnected: return "connected";
    case AttemptOutcome::kRefused: return "refused";
    case AttemptOutcome::kTimedOut: return "timed out";
    case AttemptOutcome::kFailed: return "failed";
    case AttemptOutcome::kAbandoned: return "abandoned";
  }
  return "?";
}

std::vector<net::SocketAddress> interleave_families(const std::vector<net::SocketAddress>& ipv6,
                                                    const std::vector<net::SocketAddress>& ipv4) {
  std::vector<net::SocketAddress> out;
  out.reserve(ipv6.size() + ipv4.size());
  for (std::size_t i = 0; i < std::max(ipv6.size(), ipv4.size()); ++i) {
    if (i < ipv6.size()) out.push_back(ipv6[i]);
    if (i < ipv4.size()) out.push_back(ipv4[i]);
  }
  return out;
}

ConnectResult connect_happy_eyeballs(const std::vector<net::SocketAddress>& ordered,
                                     const HappyEyeballsOptions& options, const AttemptObserver& on_attempt) {
  ConnectResult result;
  auto tell = [&](std::size_t index, bool started) {
    if (on_attempt) on_attempt(result.attempts[index], started);
  };
  const auto origin = Clock::now();
  auto since_origin = [&](Clock::time_point when) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(when - origin);
  };
  std::vector<Pending> pending;
  std::size_t next = 0;
  auto next_due = origin;
  auto last_start = origin - kMinimumSpacing;

  auto finish = [&](std::size_t attempt, AttemptOutcome outcome, int error) {
    auto& record = result.attempts[attempt];
    record.outcome = outcome;
    record.ended = since_origin(Clock::now());
    if (outcome == AttemptOutcome::kFailed) record.error = std::strerror(error);
    tell(attempt, false);
  };

  while (next < ordered.size() || !pending.empty()) {
    auto now = Clock::now();
    // Start the next attempt when it is due, or at once (after the spacing) when nothing is
    // pending any more.
    if (next < ordered.size() && (now >= next_due || pending.empty()) && now >= last_start + kMinimumSpacing) {
      const auto& address = ordered[next++];
      ConnectAttempt record;
      record.address = address;
      record.started = since_origin(now);
      result.attempts.push_back(record);
      std::size_t index = result.attempts.size() - 1;
      tell(index, true);
      last_start = now;
      next_due = now + options.attempt_delay;
      int fd = ::socket(address.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      if (fd < 0) {
        finish(index, AttemptOutcome::kFailed, errno);
        continue;
      }
      net::UniqueFd socket(fd);
      if (::connect(fd, reinterpret_cast<const sockaddr*>(&address.storage), address.length) == 0) {
        finish(index, AttemptOutcome::kConnected, 0);
        result.socket = std::move(socket);
        result.peer = address;
        break;
      }
      if (errno != EINPROGRESS) {
        finish(index, outcome_of(errno), errno);
        continue;
      }
      pending.push_back({std::move(socket), index, now + options.connect_timeout});
      continue;
    }

    // Wait for a socket, the next attempt's start or the nearest connect timeout.
    auto wake = Clock::time_point::max();
    if (next < ordered.size()) wake = std::max(pending.empty() ? last_start + kMinimumSpacing : next_due,
                                               last_start + kMinimumSpacing);
    for (const auto& attempt : pending) wake = std::min(wake, attempt.deadline);
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(std::max(wake - now, Clock::duration::zero()));
    std::vector<pollfd> fds;
    for (const auto& attempt : pending) fds.push_back({attempt.socket.get(), POLLOUT, 0});
    int ready = ::poll(fds.data(), fds.size(), static_cast<int>(std::min<std::int64_t>(wait.count(), 60'000)));
    if (ready < 0 && errno != EINTR) break;

    now = Clock::now();
    bool won = false;
    for (std::size_t i = 0; i < pending.size();) {
      auto& attempt = pending[i];
      short revents = i < fds.size() ? fds[i].revents : 0;
      if (revents != 0) {
        int error = 0;
        socklen_t length = sizeof(error);
        ::getsockopt(attempt.socket.get(), SOL_SOCKET, SO_ERROR, &error, &length);
        if (error == 0) {
          finish(attempt.attempt, AttemptOutcome::kConnected, 0);
          result.socket = std::move(attempt.socket);
          result.peer = result.attempts[attempt.attempt].address;
          pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
          won = true;
          break;
        }
        finish(attempt.attempt, outcome_of(error), error);
      } else if (now >= attempt.deadline) {
        finish(attempt.attempt, AttemptOutcome::kTimedOut, ETIMEDOUT);
      } else {
        ++i;
        continue;
      }
      pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
      fds.erase(fds.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (won) break;
  }
  // §5: once one attempt succeeds, the others are cancelled.
  for (auto& attempt : pending) finish(attempt.attempt, AttemptOutcome::kAbandoned, 0);
  return result;
}

}  // namespace cutover::client
