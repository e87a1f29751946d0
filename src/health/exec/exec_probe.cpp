// exec probe: posix_spawn (safe in a threaded process, unlike fork + arbitrary code) into a
// new process group, then waits on a pidfd with poll() so the timeout is exact; at the
// timeout the group is killed by its id (the child's PID) and reaped.
#include "health/exec/exec_probe.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

extern char** environ;

namespace cutover::health {
namespace {

std::vector<std::string> probe_environment(const Target& target) {
  std::vector<std::string> env;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    if (std::strncmp(*entry, "CUTOVER_ENDPOINT_", 17) != 0 && std::strncmp(*entry, "CUTOVER_POOL=", 13) != 0) {
      env.emplace_back(*entry);
    }
  }
  env.push_back("CUTOVER_ENDPOINT_ADDRESS=" + target.address);
  env.push_back("CUTOVER_ENDPOINT_PORT=" + std::to_string(target.port));
  env.push_back("CUTOVER_POOL=" + target.pool);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& text : strings) out.push_back(text.data());
  out.push_back(nullptr);
  return out;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exit status {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return fmt::format("killed by signal {}", WTERMSIG(status));
  return "stopped";
}

class ExecProbe : public Probe {
 public:
  ExecProbe(const CheckSettings& settings, std::shared_ptr<const ExecOptions> options)
      : settings_(settings), options_(std::move(options)) {}

  ProbeResult run(const Target& target) override {
    ProbeTimer timer;
    std::vector<std::string> argv_text{"/bin/sh", "-c", options_->command};
    std::vector<std::string> env_text = probe_environment(target);
    std::vector<char*> argv = pointers(argv_text);
    std::vector<char*> env = pointers(env_text);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    pid_t pid = -1;
    int spawned = ::posix_spawn(&pid, argv[0], nullptr, &attributes, argv.data(), env.data());
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) return timer.finish(ProbeOutcome::kError, fmt::format("cannot start command: {}", std::strerror(spawned)));

    int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
    bool exited = false;
    if (pidfd >= 0) {
      pollfd waiting{pidfd, POLLIN, 0};
      exited = ::poll(&waiting, 1, static_cast<int>(settings_.timeout.count())) > 0;
      ::close(pidfd);
    }
    if (!exited) ::kill(-pid, SIGKILL);  // the process group we created, by the child's PID
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (pidfd < 0) return timer.finish(ProbeOutcome::kError, "cannot watch the command (pidfd_open failed)");
    if (!exited) {
      return timer.finish(ProbeOutcome::kFail, fmt::format("command killed after the {} ms timeout",
                                                           settings_.timeout.count()));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return timer.finish(ProbeOutcome::kPass, "exit status 0");
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
      return timer.finish(ProbeOutcome::kFail, "exit status 127 (command not found)");
    }
    return timer.finish(ProbeOutcome::kFail, describe_status(status));
  }

 private:
  CheckSettings settings_;
  std::shared_ptr<const ExecOptions> options_;
};

std::string command_of(const CheckSettings& settings) {
  const auto* options = settings.options_as<ExecOptions>();
  return options == nullptr ? std::string() : options->command;
}

}  // namespace

void register_exec_probe(ProbeRegistry& registry) {
  registry.add(ProbeType{
      .name = "exec",
      .needs_port = false,
      // The API must not become a way to run commands on the server.
      .config_file_only = "run commands on the server",
      .option_keys = {"command"},
      .options = options_parser<ExecOptions>(read_exec_option),
      .problem = [](const CheckSettings& settings) -> std::optional<std::string> {
        if (command_of(settings).empty()) return "an exec check needs a command";
        return std::nullopt;
      },
      .create = [](const CheckSettings& settings) -> base::Result<std::unique_ptr<Probe>> {
        if (command_of(settings).empty()) {
          return base::make_error(base::ErrorCode::kInvalidArgument, "exec probe needs a command");
        }
        return std::unique_ptr<Probe>(
            std::make_unique<ExecProbe>(settings, std::dynamic_pointer_cast<const ExecOptions>(settings.options)));
      },
  });
}

}  // namespace cutover::health
