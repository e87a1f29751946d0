// UnboundResolver: a real Unbound on a free loopback port with stub zones at cutover (or any
// server) on 127.0.0.1, for tests that need a resolver in front of the authority. Test-only;
// header-only. Not thread-safe per object.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "support/dig.h"
#include "support/process.h"

namespace cutover::testing {

// A real Unbound on 127.0.0.1 (a port chosen here), its config and log in `dir`, asking each
// stub zone {NAME, PORT} at 127.0.0.1@PORT; `options` adds lines to its server: section
// ("  module-config: ...\n"). Started and waited for (at most 10 s) until it answers;
// stopped by PID when destroyed.
class UnboundResolver {
 public:
  UnboundResolver(const std::string& dir, const std::vector<std::pair<std::string, std::uint16_t>>& stubs,
                  const std::string& options = "  module-config: \"iterator\"\n")
      : port_(free_port()) {
    std::string config = fmt::format(
        "server:\n  interface: 127.0.0.1\n  port: {}\n  do-not-query-localhost: no\n"
        "  username: \"\"\n  chroot: \"\"\n  directory: \"{}\"\n  pidfile: \"{}/unbound.pid\"\n  use-syslog: no\n"
        "  do-ip6: no\n  qname-minimisation: no\n  prefetch: no\n  access-control: 127.0.0.0/8 allow\n"
        "  local-zone: \"test.\" nodefault\n{}",
        port_, dir, dir, options);
    for (const auto& [zone, port] : stubs) config += fmt::format("stub-zone:\n  name: \"{}\"\n  stub-addr: 127.0.0.1@{}\n", zone, port);
    write_file(dir + "/unbound.conf", config);
    process_ = std::make_unique<ChildProcess>(std::vector<std::string>{"unbound", "-d", "-c", dir + "/unbound.conf"},
                                              dir + "/unbound.log");
    for (int poll = 0; poll < 200 && !ready_ && process_->running(); ++poll) {
      ready_ = !dig(port_, "localhost.", "A").no_reply;
      if (!ready_) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  bool ready() const { return ready_; }
  std::uint16_t port() const { return port_; }
  std::string log() const { return process_->log(); }

 private:
  std::uint16_t port_;
  std::unique_ptr<ChildProcess> process_;
  bool ready_ = false;
};

}  // namespace cutover::testing
