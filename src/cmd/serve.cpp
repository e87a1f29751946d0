// `cutover serve`: resolves the configuration from the command line, then builds and runs
// the server through the composition root (app/serve.h). Signals are blocked in every
// thread before any starts, so only the server's sigwaitinfo loop in the main thread sees them.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "app/serve.h"
#include "base/log.h"
#include "cmd/commands.h"
#include "cmd/pid_file.h"
#include "cmd/serve_config.h"
#include "pool/config/pool_config.h"

namespace cutover::cmd {
namespace {

// Where log lines go: stderr, or the configured file (closed at exit).
class LogSink {
 public:
  explicit LogSink(const std::string& path) {
    if (path.empty()) return;
    file_ = std::fopen(path.c_str(), "a");
    if (file_ == nullptr) throw config::ConfigError(path + ": cannot open log file: " + std::strerror(errno));
  }
  ~LogSink() {
    if (file_ != stderr) std::fclose(file_);
  }
  LogSink(const LogSink&) = delete;
  LogSink& operator=(const LogSink&) = delete;
  std::FILE* file() const { return file_; }

 private:
  std::FILE* file_ = stderr;
};

sigset_t control_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGHUP);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

void print_embedded_hint(const net::SocketAddress& address, std::uint16_t control_port) {
  std::string text = net::format_address(address.storage);
  std::string host = text.substr(0, text.rfind(':'));
  if (host.front() == '[') host = host.substr(1, host.size() - 2);  // dig wants a bare IPv6 address
  std::string dig = "dig @" + host + " -p " + std::to_string(address.port());
  std::fprintf(stderr,
               "cutover: serving the built-in zone example.test. (no --config or --zone given)\n"
               "  try:  %s www.example.test A\n"
               "        %s alias.example.test A +tcp\n"
               "        %s anything.wild.example.test TXT\n"
               "        %s host.sub.example.test A      (a referral)\n",
               dig.c_str(), dig.c_str(), dig.c_str(), dig.c_str());
  if (control_port == 0) return;
  std::string api = "127.0.0.1:" + std::to_string(control_port);
  std::fprintf(stderr,
               "  pool: %s app.example.test A      (127.0.0.11 while healthy)\n"
               "        cutover status --control %s\n"
               "        curl -d '' http://%s/demo/endpoints/127.0.0.11/stop   (watch the answer move)\n"
               "        curl -d '' http://%s/pools/app/endpoints/127.0.0.11/drain\n",
               dig.c_str(), api.c_str(), api.c_str(), api.c_str());
}

void run_serve(const ServeOptions& options, bool lab) {
  // Blocked before any thread starts, so every thread inherits the mask and only
  // sigwaitinfo in the main thread ever sees these signals.
  sigset_t signals = control_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  int status = 1;
  try {
    // The lab serves only its own zones: the built-in example's pools would point at nothing.
    auto resolve = [options, lab] {
      config::Config resolved = resolve_serve_config(options);
      if (lab && serves_embedded_default(options)) pool::set_config_pools(resolved, {});
      return resolved;
    };
    config::Config config = resolve();
    LogSink sink(config.log.file);
    base::Logger logger(sink.file(), config.log.level);
    bool embedded = serves_embedded_default(options);
    std::string pid_file = config.pid_file;
    app::Serve serve(resolve, std::move(config), logger, app::ServeFeatures{.lab = lab, .demo_endpoints = embedded && !lab});
    control::ControlServer* api = serve.control_api();
    status = serve.run(signals, [&](const std::vector<net::SocketAddress>& addresses) {
      if (!pid_file.empty()) {
        auto written = write_pid_file(pid_file, ::getpid());
        if (!written) logger.warn("pid_file.failed", {{"reason", written.error().message}});
      }
      if (embedded && !lab) print_embedded_hint(addresses.front(), api ? api->port() : 0);
    });
    if (!pid_file.empty()) ::unlink(pid_file.c_str());
  } catch (const config::ConfigError& e) {
    std::fprintf(stderr, "cutover serve: %s\n", e.what());
  }
  if (status != 0) throw CLI::RuntimeError(status);
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto options = std::make_shared<ServeOptions>();
  auto* command = app.add_subcommand("serve", "Answer DNS queries for the configured zones (the built-in example "
                                              "zone when neither --config nor --zone is given)");
  command->add_option("--config", options->config, "YAML config file")->check(CLI::ExistingFile);
  command->add_option("--listen", options->listen, "ADDRESS:PORT to listen on, repeatable (replaces the config's)");
  command->add_option("--zone", options->zones, "ORIGIN=FILE zone to serve, repeatable (added to the config's)");
  command->add_option("--threads", options->threads, "Threads per address and transport")->check(CLI::Range(1, 64));
  command->add_option("--log-level", options->log_level, "debug, info, warn or error");
  command->add_flag("--query-log", options->query_log, "Log one line per query");
  command->add_option("--control", options->control, "ADDRESS:PORT of the HTTP control API (port 0: any free port)");
  auto lab = std::make_shared<bool>(false);
  command->add_flag("--lab", *lab, "Lab authority: zones, records, outages set at runtime through the control API "
                                   "(/lab/...), for `cutover lab`");
  command->callback([options, lab] { run_serve(*options, *lab); });
}

}  // namespace cutover::cmd
