// `cutover serve`: resolves the configuration from the command line, then builds and runs
// the server through the composition root (app/serve.h). Signals are blocked in every
// thread before any starts, so only the server's sigwaitinfo loop in the main thread sees them.
// --check runs the start-up checks that need no socket and exits; --json writes the log lines
// as JSON objects. Exit 0 after SIGTERM/SIGINT (or a clean check), 2 when it cannot serve.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <system_error>

#include "app/serve.h"
#include "app/serve_check.h"
#include "base/log.h"
#include "base/log_format.h"
#include "cmd/commands.h"
#include "cmd/huge_page_heap.h"
#include "cmd/lab_clients.h"
#include "cmd/output.h"
#include "cmd/pid_file.h"
#include "cmd/serve_config.h"
#include "config/zone_files.h"
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

// Whether LogSink could open `path` for appending, without creating it: the file is writable,
// or it does not exist and its directory is.
std::string log_file_problem(const std::string& path) {
  if (path.empty()) return {};
  if (::access(path.c_str(), F_OK) == 0) {
    if (::access(path.c_str(), W_OK) == 0) return {};
  } else {
    auto slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    if (::access(dir.c_str(), W_OK) == 0) return {};
  }
  return path + ": cannot open log file: " + std::strerror(errno);
}

void print_embedded_hint(const net::SocketAddress& address, std::uint16_t control_port, base::Logger& logger) {
  std::string host = net::format_host(address.storage);  // dig wants a bare IPv6 address
  std::string dig = "dig @" + host + " -p " + std::to_string(address.port());
  if (base::log_format() == base::LogFormat::kJson) {
    // Every stderr line is a JSON object with --json: the hint is a log line.
    logger.info("serve.embedded_default",
                {{"zone", "example.test."},
                 {"try", dig + " www.example.test A"},
                 {"control", control_port == 0 ? std::string() : "127.0.0.1:" + std::to_string(control_port)},
                 {"console", control_port == 0 ? std::string() : "http://127.0.0.1:" + std::to_string(control_port) + "/"}});
    return;
  }
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
               "        curl -d '' http://%s/pools/app/endpoints/127.0.0.11/drain\n"
               "  console: http://%s/   (pools, zones, live; docs/console.md)\n",
               dig.c_str(), api.c_str(), api.c_str(), api.c_str(), api.c_str());
}

struct ServeFlags {
  bool lab = false;
  bool check = false;
  std::string lab_results;  // --lab-results FILE
};

// --lab-results: the clients of a lab run through the reader calc, plan and explain use
// (cmd/lab_clients.h), as the pools' status shows them; exit 2 when the file cannot be read.
pool::LabRun lab_run_of(const std::string& path, const Output& output) {
  pool::LabRun run;
  for (const auto& measured : load_lab_clients(path, output)) {
    if (run.source.empty()) run.source = measured.source;
    run.clients.push_back(pool::LabClient{measured.id, measured.runtime, measured.version, measured.cache_seconds,
                                          measured.cache_basis, measured.reuse_measured, measured.reuse_seconds,
                                          measured.reuse_basis});
  }
  return run;
}

// The configuration serve runs with; the lab serves only its own zones (the built-in
// example's pools would point at nothing).
server::Server::ConfigSource config_source(const ServeOptions& options, bool lab) {
  return [options, lab] {
    config::Config resolved = resolve_serve_config(options);
    if (lab && serves_embedded_default(options)) pool::set_config_pools(resolved, {});
    return resolved;
  };
}

// --check: everything serve refuses at start short of binding, as a report.
void run_check(const ServeOptions& options, const ServeFlags& flags, const Output& output) {
  config::Config config;
  try {
    config = config_source(options, flags.lab)();
  } catch (const config::ConfigError& e) {
    output.fail(ExitCode::kCouldNotRun, e.what());
  }
  lab_run_of(flags.lab_results, output);  // a bad --lab-results is refused here too
  app::ServeFeatures features;
  features.lab = flags.lab;
  app::ServeCheck check = app::check_serve(config, features);
  if (std::string problem = log_file_problem(config.log.file); !problem.empty()) check.problems.push_back(problem);
  if (!output.json()) {
    for (const auto& diagnostic : check.diagnostics) {
      if (diagnostic.severity != zone::Severity::kError) std::fprintf(stderr, "%s\n", diagnostic.to_string().c_str());
    }
  }
  if (!check.ok()) {
    std::string message = check.problems.front();
    for (std::size_t i = 1; i < check.problems.size(); ++i) message += "\n" + check.problems[i];
    output.fail(ExitCode::kCouldNotRun, message, {{"problems", check.problems}});
  }
  nlohmann::json zones = nlohmann::json::array();
  for (const auto& zone : check.zones) {
    zones.push_back({{"origin", zone.origin.to_text()}, {"file", zone.file}, {"serial", zone.serial}, {"records", zone.records}});
  }
  if (output.json()) {
    nlohmann::json warnings = nlohmann::json::array();
    for (const auto& diagnostic : check.diagnostics) warnings.push_back(diagnostic.to_string());
    output.document({{"command", output.command()},
                     {"ok", true},
                     {"config", config.source},
                     {"zones", zones},
                     {"pools", pool::config_pools(config).size()},
                     {"warnings", warnings}});
    return;
  }
  for (const auto& zone : check.zones) {
    std::printf("%s: loaded serial %u, %zu records (%s)\n", zone.origin.to_text().c_str(), zone.serial, zone.records,
                zone.file.c_str());
  }
  std::printf("%s: ok, %zu zones, %zu pools; nothing was bound\n", config.source.c_str(), check.zones.size(),
              pool::config_pools(config).size());
}

void run_serve(const ServeOptions& options, const ServeFlags& flags, const Output& output) {
  if (output.json()) base::set_log_format(base::LogFormat::kJson);
  if (flags.check) {
    run_check(options, flags, output);
    return;
  }
  // Resolved once, here: the zone files' size decides the heap before anything else runs.
  auto resolve = config_source(options, flags.lab);
  config::Config config;
  try {
    config = resolve();
  } catch (const config::ConfigError& e) {
    output.fail(ExitCode::kCouldNotRun, e.what());
  }
  // Large zones load from a huge-page heap: serve may start itself once more for it, before
  // any thread or signal mask exists (huge_page_heap.h).
  restart_with_huge_page_heap(config::zone_file_bytes(config));
  // Blocked before any thread starts, so every thread inherits the mask and only
  // sigwaitinfo in the main thread ever sees these signals.
  pool::LabRun lab_run = lab_run_of(flags.lab_results, output);
  sigset_t signals = control_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  int status = 0;
  try {
    LogSink sink(config.log.file);
    base::Logger logger(sink.file(), config.log.level);
    bool embedded = serves_embedded_default(options);
    std::string pid_file = config.pid_file;
    bool lab = flags.lab;
    app::Serve serve(resolve, std::move(config), logger, app::ServeFeatures{.lab = lab, .demo_endpoints = embedded && !lab, .lab_run = std::move(lab_run)});
    control::ControlServer* api = serve.control_api();
    status = serve.run(signals, [&](const std::vector<net::SocketAddress>& addresses) {
      if (!pid_file.empty()) {
        auto written = write_pid_file(pid_file, ::getpid());
        if (!written) logger.warn("pid_file.failed", {{"reason", written.error().message}});
      }
      if (embedded && !lab) print_embedded_hint(addresses.front(), api ? api->port() : 0, logger);
    });
    if (!pid_file.empty()) ::unlink(pid_file.c_str());
  } catch (const config::ConfigError& e) {
    output.fail(ExitCode::kCouldNotRun, e.what());
  }
  // The server logged why (serve.failed: a zone, a service or a listener).
  if (status != 0) output.fail(ExitCode::kCouldNotRun, "the server failed; its log says why (serve.failed)");
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
  auto flags = std::make_shared<ServeFlags>();
  command->add_flag("--lab", flags->lab, "Lab authority: zones, records, outages set at runtime through the control API "
                                         "(/lab/...), for `cutover lab`");
  command->add_option("--lab-results", flags->lab_results,
                      "results.json of cutover lab run --clients (E6, E11): the console and /status show each lab "
                      "client's C and R beside the pools' D and K")
      ->check(CLI::ExistingFile);
  command->add_flag("--check", flags->check,
                    "Check the config and zones as serve would at start (nothing is bound); exit 0 when it would "
                    "start, 2 when not");
  auto output = std::make_shared<Output>("serve");
  output->add_json_flag(*command, "Write log lines as JSON objects (with --check: the report as one JSON document)");
  command->callback([options, flags, output] { run_serve(*options, *flags, *output); });
}

}  // namespace cutover::cmd
