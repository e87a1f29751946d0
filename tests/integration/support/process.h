// Child processes and scratch files for integration tests: start the real binary or a
// command-line peer, capture its output, stop it by PID. Not thread-safe per object.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace cutover::testing {

struct CommandResult {
  int exit_code = -1;  // exit status, or 128 + signal number when killed
  std::string out;
  std::string err;
  bool timed_out = false;  // killed (SIGKILL, by PID) because it ran past the timeout
};

// Runs argv (argv[0] searched in PATH) to completion with no stdin, capturing both streams.
CommandResult run_command(std::vector<std::string> argv, std::chrono::milliseconds timeout);

// A fresh directory under $TMPDIR (or /tmp) named PREFIX.XXXXXX; kept after the test so
// logs can be read when it fails. Throws std::runtime_error on failure.
std::string make_temp_dir(std::string_view prefix);
// Replaces the file's contents; throws std::runtime_error on failure.
void write_file(const std::string& path, std::string_view text);
// The whole file, or "" when it cannot be read.
std::string read_file(const std::string& path);

// True when `program` is an executable in a PATH directory or in /usr/sbin, /sbin, /usr/bin
// or /bin (BIND's and NSD's daemons live in sbin, which a non-root PATH may lack).
bool have_program(std::string_view program);

// A port on 127.0.0.1 that was free for both UDP and TCP a moment ago, picked at random
// outside the kernel's ephemeral range (whose released ports any client socket may take
// before the test binds it), so parallel test processes do not collide on a fixed list.
std::uint16_t free_port();
// True when a socket can bind ::1 (IPv6 loopback); tests that need it skip otherwise.
bool ipv6_loopback_available();

// A running child whose stdout and stderr go to a log file. The destructor stops it.
class ChildProcess {
 public:
  // Starts argv; output goes to `log_path`, or to a file in a new temp dir when empty.
  // Throws std::runtime_error if fork/exec setup fails (an exec failure shows as exit 127).
  explicit ChildProcess(std::vector<std::string> argv, std::string log_path = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  // True until the child has exited (reaps it without blocking).
  bool running();
  void signal(int signo);
  // Waits up to `timeout` for the child to exit; its exit status, or nullopt if still running.
  std::optional<int> wait_for_exit(std::chrono::milliseconds timeout);
  // SIGTERM, then up to `grace` for it to exit, then SIGKILL. Returns the exit status
  // (128 + signal when killed by a signal). Idempotent.
  int stop(std::chrono::milliseconds grace = std::chrono::seconds(5));

  const std::string& log_path() const { return log_path_; }
  std::string log() const { return read_file(log_path_); }

 private:
  bool try_reap(bool block);

  pid_t pid_ = -1;
  std::string log_path_;
  std::optional<int> exit_status_;
};

// Polls `done` every 100 ms for up to `limit`; its last answer.
template <typename Done>
bool eventually(Done done, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

}  // namespace cutover::testing
