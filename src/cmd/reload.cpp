// `cutover reload`: asks a running server to reload its configuration and zones by sending
// it SIGHUP; the server's log says whether the reload worked. Exit 2 when there is no server
// to signal (no pid file, a stale one, a config without pid-file).
#include <signal.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "cmd/commands.h"
#include "cmd/output.h"
#include "cmd/pid_file.h"
#include "config/config.h"

namespace cutover::cmd {
namespace {

struct ReloadOptions {
  std::string pid_file;
  std::string config;
  Output output{"reload"};
};

void run_reload(const ReloadOptions& options) {
  auto fail = [&](const std::string& message) { options.output.fail(ExitCode::kCouldNotRun, message); };
  std::string pid_path = options.pid_file;
  if (pid_path.empty() && options.config.empty()) fail("give --pid-file FILE or --config FILE");
  if (pid_path.empty()) {
    try {
      pid_path = config::load_config_file(options.config).pid_file;
    } catch (const config::ConfigError& e) {
      fail(e.what());
    }
    if (pid_path.empty()) fail(options.config + " sets no pid-file; pass --pid-file");
  }
  auto pid = read_pid_file(pid_path);
  if (!pid) fail(pid.error().message);
  if (::kill(*pid, SIGHUP) != 0) fail("cannot signal process " + std::to_string(*pid) + ": " + std::strerror(errno));
  if (options.output.json()) {
    options.output.document({{"command", "reload"}, {"pid", static_cast<int>(*pid)}, {"signal", "SIGHUP"}});
  } else {
    std::fprintf(stderr, "cutover reload: sent SIGHUP to %d\n", static_cast<int>(*pid));
  }
}

}  // namespace

void add_reload_command(CLI::App& app) {
  auto options = std::make_shared<ReloadOptions>();
  auto* command = app.add_subcommand("reload", "Make a running server reload its configuration and zones (SIGHUP)");
  auto* pid_option = command->add_option("--pid-file", options->pid_file, "The server's pid file");
  auto* config_option =
      command->add_option("--config", options->config, "The server's config file (its pid-file is used)");
  pid_option->excludes(config_option);
  options->output.add_json_flag(*command, "Print which process was signalled as JSON");
  command->callback([options] { run_reload(*options); });
}

}  // namespace cutover::cmd
