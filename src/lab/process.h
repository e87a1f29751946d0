// Child processes of the lab (resolvers and lab authorities): started by fork/exec in their
// own process group with stdout/stderr to a log file, stopped by PID. Every live child is in
// the ProcessRegistry so an interrupted lab (SIGINT/SIGTERM) kills them all before exiting.
// ChildProcess is not thread-safe; the registry is.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace cutover::lab {

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess() { stop(); }
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // argv[0] is looked up in PATH. The child dies with the lab (PR_SET_PDEATHSIG).
  static base::Result<ChildProcess> start(const std::vector<std::string>& argv, const std::string& log_path,
                                          const std::string& working_dir = {});

  pid_t pid() const { return pid_; }
  bool running();
  // SIGTERM, then SIGKILL after `grace_ms`; reaps the child. Idempotent.
  void stop(int grace_ms = 2000);

 private:
  pid_t pid_ = -1;
};

// A network namespace `ip netns add NAME` created: an interrupted lab removes it (its
// /run/netns/NAME mount and /etc/netns/NAME) after killing the children. Thread-safe.
void register_namespace(const std::string& name);
void unregister_namespace(const std::string& name);

// Installs SIGINT/SIGTERM handlers that SIGKILL every registered child, remove every
// registered namespace and exit with 130.
void install_interrupt_handler();

// The last `max_lines` lines of a log file, for error reports.
std::string log_tail(const std::string& path, std::size_t max_lines = 15);

// True if `program` is an executable found in PATH (or an executable path).
bool program_exists(const std::string& program);

// Runs `argv` to completion and returns its stdout+stderr (for `--version` probes).
std::string capture_output(const std::vector<std::string>& argv);

// The same, with the exit status (-1 when it did not exit normally, 127 when it cannot run).
struct CommandOutput {
  int exit_code = -1;
  std::string text;
};
CommandOutput run_capture(const std::vector<std::string>& argv);

// Writes `text` to `path` (replacing it): a generated config or zone file.
base::Status write_text(const std::string& path, const std::string& text);

// A port on 127.0.0.1 that was free for both UDP and TCP a moment ago.
base::Result<std::uint16_t> free_port();

}  // namespace cutover::lab
