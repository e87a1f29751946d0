// tcp probe: non-blocking connect bounded by poll(), so a blackholed endpoint costs
// exactly the timeout and never blocks the checker longer.
#include "health/tcp/tcp_probe.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

namespace cutover::health {
namespace {

class TcpProbe : public Probe {
 public:
  explicit TcpProbe(std::chrono::milliseconds timeout) : timeout_(timeout) {}
  ProbeResult run(const Target& target) override { return probe_tcp_connect(target, timeout_); }

 private:
  std::chrono::milliseconds timeout_;
};

// Errors of the machine running the probe, not of the endpoint.
bool is_local_resource_error(int error) {
  return error == EMFILE || error == ENFILE || error == ENOBUFS || error == ENOMEM;
}

}  // namespace

TcpConnectAttempt tcp_connect(const Target& target, std::chrono::milliseconds timeout, const ProbeTimer& timer) {
  TcpConnectAttempt attempt;
  net::UniqueFd fd(::socket(target.socket.family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) {
    attempt.failure = timer.finish(ProbeOutcome::kError, fmt::format("cannot create socket: {}", std::strerror(errno)));
    return attempt;
  }
  int error = 0;
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&target.socket.storage), target.socket.length) != 0) {
    error = errno;
    if (error == EINPROGRESS) {
      pollfd waiting{fd.get(), POLLOUT, 0};
      int ready = ::poll(&waiting, 1, static_cast<int>(timeout.count()));
      if (ready == 0) {
        attempt.failure = timer.finish(ProbeOutcome::kFail,
                                       fmt::format("connect timed out after {} ms (no reply to SYN)", timeout.count()));
        return attempt;
      }
      socklen_t length = sizeof(error);
      error = ready < 0 ? errno : 0;
      if (ready > 0) ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &error, &length);
    }
  }
  if (error == 0) {
    attempt.socket = std::move(fd);
    return attempt;
  }
  ProbeOutcome outcome = is_local_resource_error(error) ? ProbeOutcome::kError : ProbeOutcome::kFail;
  attempt.failure = timer.finish(outcome, fmt::format("connect failed: {}", std::strerror(error)));
  return attempt;
}

ProbeResult probe_tcp_connect(const Target& target, std::chrono::milliseconds timeout) {
  ProbeTimer timer;
  TcpConnectAttempt attempt = tcp_connect(target, timeout, timer);
  if (!attempt.socket.valid()) return attempt.failure;
  attempt.socket.reset();
  return timer.finish(ProbeOutcome::kPass, "connected");
}

void register_tcp_probe(ProbeRegistry& registry) {
  registry.add(ProbeType{
      .name = "tcp",
      .create = [](const CheckSettings& settings) -> base::Result<std::unique_ptr<Probe>> {
        return std::unique_ptr<Probe>(std::make_unique<TcpProbe>(settings.timeout));
      },
  });
}

}  // namespace cutover::health
