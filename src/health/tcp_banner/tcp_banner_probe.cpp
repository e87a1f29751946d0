// tcp-banner probe: the connect of the tcp probe, then a read bounded by poll() against
// one deadline, so a server that accepts and never speaks costs exactly the timeout.
#include "health/tcp_banner/tcp_banner_probe.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "health/tcp/tcp_probe.h"

namespace cutover::health {
namespace {

// A longer prefix says nothing more about the service and only costs reading.
constexpr std::size_t kMaxExpect = 512;

// The banner as it may be shown in a detail: printable ASCII kept, the rest escaped.
std::string printable(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c == '\r') {
      out += "\\r";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  return out;
}

void read_tcp_banner_option(TcpBannerOptions& options, const std::string& key, const OptionReader& reader) {
  if (key != "expect") return;
  std::string text = reader.scalar(key);
  if (text.empty()) reader.fail(key, "expected the banner's first bytes, like '220 ' or 'SSH-2.0-'");
  if (text.size() > kMaxExpect) reader.fail(key, fmt::format("expected at most {} bytes", kMaxExpect));
  options.expect = std::move(text);
}

std::string expect_of(const CheckSettings& settings) {
  const auto* options = settings.options_as<TcpBannerOptions>();
  return options == nullptr ? std::string() : options->expect;
}

class TcpBannerProbe : public Probe {
 public:
  TcpBannerProbe(std::string expect, std::chrono::milliseconds timeout) : expect_(std::move(expect)), timeout_(timeout) {}
  ProbeResult run(const Target& target) override { return probe_tcp_banner(target, expect_, timeout_); }

 private:
  std::string expect_;
  std::chrono::milliseconds timeout_;
};

}  // namespace

ProbeResult probe_tcp_banner(const Target& target, const std::string& expect, std::chrono::milliseconds timeout) {
  ProbeTimer timer;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  TcpConnectAttempt attempt = tcp_connect(target, timeout, timer);
  if (!attempt.socket.valid()) return attempt.failure;
  std::string banner;
  char buffer[kMaxExpect];
  while (banner.size() < expect.size()) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd waiting{attempt.socket.get(), POLLIN, 0};
    int ready = left.count() > 0 ? ::poll(&waiting, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return timer.finish(ProbeOutcome::kError, fmt::format("poll failed: {}", std::strerror(errno)));
    if (ready == 0) {
      return timer.finish(ProbeOutcome::kFail, fmt::format("no banner within the {} ms timeout ({} bytes: \"{}\")",
                                                           timeout.count(), banner.size(), printable(banner)));
    }
    ssize_t got = ::recv(attempt.socket.get(), buffer, expect.size() - banner.size(), 0);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
    if (got < 0) return timer.finish(ProbeOutcome::kFail, fmt::format("read failed: {}", std::strerror(errno)));
    if (got == 0) {
      return timer.finish(ProbeOutcome::kFail, fmt::format("connection closed after {} bytes of banner: \"{}\"",
                                                           banner.size(), printable(banner)));
    }
    banner.append(buffer, static_cast<std::size_t>(got));
    if (expect.compare(0, banner.size(), banner) != 0) break;  // already differs: no need to wait for the rest
  }
  if (banner == expect) return timer.finish(ProbeOutcome::kPass, fmt::format("banner \"{}\"", printable(banner)));
  return timer.finish(ProbeOutcome::kFail, fmt::format("banner \"{}\" does not start with \"{}\"", printable(banner),
                                                       printable(expect)));
}

void register_tcp_banner_probe(ProbeRegistry& registry) {
  registry.add(ProbeType{
      .name = "tcp-banner",
      .option_keys = {"expect"},
      .options = options_parser<TcpBannerOptions>(read_tcp_banner_option),
      .problem = [](const CheckSettings& settings) -> std::optional<std::string> {
        if (expect_of(settings).empty()) return "a tcp-banner check needs 'expect' (the banner's first bytes)";
        return std::nullopt;
      },
      .create = [](const CheckSettings& settings) -> base::Result<std::unique_ptr<Probe>> {
        std::string expect = expect_of(settings);
        if (expect.empty()) return base::make_error(base::ErrorCode::kInvalidArgument, "tcp-banner probe needs 'expect'");
        return std::unique_ptr<Probe>(std::make_unique<TcpBannerProbe>(std::move(expect), settings.timeout));
      },
  });
}

}  // namespace cutover::health
