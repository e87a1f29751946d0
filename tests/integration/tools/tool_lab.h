// Loopback lab for the operator tools' integration tests: `cutover serve` instances on their
// own 127.53.X.Y addresses (X from the test's PID, so parallel test binaries do not meet),
// real Unbound resolvers, and a runner for the cutover binary. Children are stopped by PID
// when their owners go out of scope. Not thread-safe.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/dig.h"
#include "support/process.h"

namespace cutover::testing {

// "127.53.X.HOST": X is fixed per test process.
inline std::string lab_ip(int host) {
  return "127.53." + std::to_string(1 + getpid() % 200) + "." + std::to_string(host);
}

// True when a UDP and a TCP socket can bind ip:port right now (port 53 needs root).
inline bool can_bind(const std::string& ip, std::uint16_t port) {
  for (int type : {SOCK_DGRAM, SOCK_STREAM}) {
    int fd = ::socket(AF_INET, type, 0);
    if (fd < 0) return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    ::inet_pton(AF_INET, ip.c_str(), &address.sin_addr);
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    bool bound = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    if (!bound) return false;
  }
  return true;
}

inline DigResult dig_at(const std::string& ip, std::uint16_t port, const std::string& name, const std::string& type,
                        std::vector<std::string> extra = {}) {
  std::vector<std::string> argv = {"dig", "@" + ip, "-p", std::to_string(port), name, type, "+time=1", "+tries=1"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  CommandResult run = run_command(argv, std::chrono::seconds(10));
  DigResult result = parse_dig_output(run.out);
  result.exit_code = run.exit_code;
  result.timed_out = run.timed_out;
  return result;
}

// Polls `ready` every 50 ms for up to 10 s; throws with the child's log if it never holds.
template <typename Ready>
void wait_until(ChildProcess& child, const std::string& what, Ready ready) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (!child.running()) throw std::runtime_error(what + " exited early; log:\n" + child.log());
    if (ready()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw std::runtime_error(what + " not ready within 10 s; log:\n" + child.log());
}

// `cutover serve` on ip:port with the given zones; ready once it answers the first zone's SOA.
inline std::unique_ptr<ChildProcess> start_auth(const std::string& ip, std::uint16_t port,
                                                const std::vector<std::pair<std::string, std::string>>& zones) {
  std::vector<std::string> argv = {CUTOVER_BINARY, "serve", "--listen", ip + ":" + std::to_string(port)};
  for (const auto& [origin, file] : zones) argv.insert(argv.end(), {"--zone", origin + "=" + file});
  auto child = std::make_unique<ChildProcess>(argv);
  const std::string probe = zones.front().first;
  wait_until(*child, "cutover serve on " + ip, [&] { return !dig_at(ip, port, probe, "SOA", {"+norec"}).no_reply; });
  return child;
}

// Unbound in the foreground on 127.0.0.1:port, iterator only, no validation, loopback upstreams
// allowed; `extra` holds stub-zone clauses and server options (real-peers.md).
inline std::unique_ptr<ChildProcess> start_unbound(const std::string& dir, std::uint16_t port, const std::string& extra) {
  std::string config = "server:\n  interface: 127.0.0.1\n  port: " + std::to_string(port) +
                       "\n  do-not-query-localhost: no\n  module-config: \"iterator\"\n  username: \"\"\n"
                       "  chroot: \"\"\n  directory: \"" + dir + "\"\n  pidfile: \"" + dir + "/unbound.pid\"\n"
                       "  use-syslog: no\n  verbosity: 1\n  do-ip6: no\n  qname-minimisation: no\n  prefetch: no\n"
                       "  harden-referral-path: no\n  access-control: 127.0.0.0/8 allow\n" + extra;
  write_file(dir + "/unbound.conf", config);
  auto child = std::make_unique<ChildProcess>(std::vector<std::string>{"unbound", "-d", "-c", dir + "/unbound.conf"},
                                              dir + "/unbound.log");
  wait_until(*child, "unbound", [&] { return !dig_at("127.0.0.1", port, "localhost.", "A").no_reply; });
  return child;
}

inline CommandResult run_cutover(std::vector<std::string> args, std::chrono::seconds timeout = std::chrono::seconds(60)) {
  args.insert(args.begin(), CUTOVER_BINARY);
  return run_command(args, timeout);
}

}  // namespace cutover::testing
