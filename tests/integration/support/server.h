// CutoverServer: the real `cutover serve` binary on a free loopback port, started and
// waited for until it answers, stopped by PID. Not thread-safe per object.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/process.h"

namespace cutover::testing {

struct ServerSpec {
  // --zone ORIGIN=FILE arguments, in order.
  std::vector<std::pair<std::string, std::string>> zones;
  // --config FILE when not empty. The server still gets --listen 127.0.0.1:PORT, which
  // replaces the config's listen list. The config must leave logs on stderr (no log.file):
  // the harness reads the log, among other things to learn the port.
  std::string config;
  // Name whose SOA is queried to decide the server is up; defaults to the first zone's
  // origin, or example.test. (the embedded default) when there are no zones.
  std::string probe_name;
  // 0: the server binds port 0 and the kernel picks a free one, so concurrent tests can never
  // share a port (the server's reuse-port sockets would otherwise split the traffic).
  std::uint16_t port = 0;
  // Further listen addresses (e.g. "[::1]:PORT"), each passed as another --listen.
  std::vector<std::string> extra_listen;
  std::vector<std::string> extra_args;
};

class CutoverServer {
 public:
  // Starts the server and waits (up to ~10 s) until it answers the probe over UDP. Throws
  // std::runtime_error, carrying the server log, if it exits or never answers.
  explicit CutoverServer(ServerSpec spec);
  // Starts the server without waiting for it (for tests that expect it to fail to start);
  // port() stays 0 unless the spec fixed it.
  static std::unique_ptr<CutoverServer> launch(ServerSpec spec);

  std::uint16_t port() const { return port_; }
  pid_t pid() const { return process_->pid(); }
  bool running() { return process_->running(); }
  // SIGHUP: the server reloads its configuration and zones in the background.
  void reload() { process_->signal(SIGHUP); }
  void signal(int signo) { process_->signal(signo); }
  std::string log() const { return process_->log(); }
  // The control API's port, as the server last logged it ("control.listen address=..."; with
  // `control.listen: 127.0.0.1:0` the kernel's pick, new after a restart); 0 before that line.
  std::uint16_t control_port() const;
  // Polls the log until `needle` appears `occurrences` times or `timeout` passes.
  bool wait_for_log(const std::string& needle, std::size_t occurrences = 1,
                    std::chrono::milliseconds timeout = std::chrono::seconds(10));
  std::optional<int> wait_for_exit(std::chrono::milliseconds timeout) { return process_->wait_for_exit(timeout); }
  // SIGTERM (then SIGKILL after 5 s); returns the exit status.
  int stop() { return process_->stop(); }

 private:
  CutoverServer(ServerSpec spec, bool wait_ready);
  void wait_until_ready(const std::string& probe_name);
  std::uint16_t port_from_log() const;

  std::uint16_t port_ = 0;
  std::unique_ptr<ChildProcess> process_;
};

// How many times `needle` occurs in `text`.
std::size_t count_occurrences(const std::string& text, const std::string& needle);

}  // namespace cutover::testing
