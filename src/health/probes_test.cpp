// Probe unit tests on 127.0.0.1: tcp pass/refused, exec exit codes, environment and
// timeout kill, the registry's one list, and the http helpers (status ranges, cert dates).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "health/exec/exec_probe.h"
#include "health/http/http_probe.h"
#include "health/probe.h"
#include "health/tcp/tcp_probe.h"

namespace cutover::health {
namespace {

// A listening socket on 127.0.0.1 (the kernel completes handshakes; nothing is accepted).
struct Listener {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  std::uint16_t port = 0;
  Listener() {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    ::listen(fd, 16);
    socklen_t length = sizeof(address);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    port = ntohs(address.sin_port);
  }
  ~Listener() { ::close(fd); }
};

Target loopback(std::uint16_t port) {
  Target target;
  target.pool = "app";
  target.address = "127.0.0.1";
  target.port = port;
  target.socket = *net::parse_socket_address("127.0.0.1:" + std::to_string(port));
  return target;
}

TEST(TcpProbe, PassesOnAListenerAndFailsPreciselyWhenRefused) {
  std::uint16_t port = 0;
  {
    Listener listener;
    port = listener.port;
    ProbeResult pass = probe_tcp_connect(loopback(port), std::chrono::milliseconds(1000));
    EXPECT_EQ(pass.outcome, ProbeOutcome::kPass) << pass.detail;
  }
  ProbeResult refused = probe_tcp_connect(loopback(port), std::chrono::milliseconds(1000));
  EXPECT_EQ(refused.outcome, ProbeOutcome::kFail);
  EXPECT_EQ(refused.detail, "connect failed: Connection refused");
}

ProbeResult run_exec(const std::string& command, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
  ProbeRegistry registry;
  register_builtin_probes(registry);
  CheckSettings settings;
  settings.type = "exec";
  auto options = std::make_shared<ExecOptions>();
  options->command = command;
  settings.options = options;
  settings.timeout = timeout;
  auto probe = registry.create(settings);
  EXPECT_TRUE(probe.ok());
  return (*probe)->run(loopback(8080));
}

TEST(ExecProbe, ExitStatusDecidesAndTheEndpointIsInTheEnvironment) {
  EXPECT_EQ(run_exec("exit 0").outcome, ProbeOutcome::kPass);
  ProbeResult failed = run_exec("exit 3");
  EXPECT_EQ(failed.outcome, ProbeOutcome::kFail);
  EXPECT_EQ(failed.detail, "exit status 3");
  EXPECT_EQ(run_exec(R"(test "$CUTOVER_ENDPOINT_ADDRESS:$CUTOVER_ENDPOINT_PORT:$CUTOVER_POOL" = "127.0.0.1:8080:app")")
                .outcome,
            ProbeOutcome::kPass);
  EXPECT_EQ(run_exec("no-such-command-anywhere").detail, "exit status 127 (command not found)");
}

TEST(ExecProbe, KilledAtTheTimeout) {
  ProbeResult result = run_exec("sleep 30", std::chrono::milliseconds(100));
  EXPECT_EQ(result.outcome, ProbeOutcome::kFail);
  EXPECT_EQ(result.detail, "command killed after the 100 ms timeout");
}

TEST(ProbeRegistry, HoldsTheBuiltinTypesAndRejectsOthers) {
  ProbeRegistry registry;
  register_builtin_probes(registry);
  for (const char* type : {"dns", "exec", "http", "https", "tcp"}) EXPECT_TRUE(registry.knows(type)) << type;
  EXPECT_EQ(registry.default_port("https"), 443);
  EXPECT_EQ(registry.default_port("tcp"), 0);
  CheckSettings settings;
  settings.type = "smtp";
  auto probe = registry.create(settings);
  ASSERT_FALSE(probe.ok());
  EXPECT_EQ(probe.error().message, "unknown probe type 'smtp'");
}

TEST(HttpProbe, StatusRangesAndCertificateDates) {
  std::vector<StatusRange> ranges = {{200, 299}, {301, 301}};
  EXPECT_TRUE(status_expected(204, ranges));
  EXPECT_TRUE(status_expected(301, ranges));
  EXPECT_FALSE(status_expected(302, ranges));
  auto now = std::chrono::sys_days{std::chrono::year{2030} / 6 / 1};
  EXPECT_EQ(days_until("Jun 12 00:00:00 2030 GMT", now), 11);
  EXPECT_EQ(days_until(" May 31 12:00:00 2030 GMT", now), -1);
  EXPECT_EQ(days_until("not a date", now), std::nullopt);
}

}  // namespace
}  // namespace cutover::health
