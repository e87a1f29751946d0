// `cutover serve`: loads the zones, answers on UDP and TCP, reloads on SIGHUP and stops on
// SIGTERM/SIGINT. The main thread only waits for signals (sigwaitinfo with the signals
// blocked everywhere); listener threads read the current ZoneSet through an atomic
// shared_ptr, so a reload swaps data without ever blocking a query.
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "auth/engine.h"
#include "base/log.h"
#include "cmd/commands.h"
#include "cmd/pid_file.h"
#include "cmd/serve_config.h"
#include "config/zone_loading.h"
#include "net/server.h"

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

void log_zone_load(base::Logger& logger, const config::ZoneSetLoad& load) {
  for (const auto& diagnostic : load.diagnostics) {
    if (diagnostic.severity == zone::Severity::kError) {
      logger.error("zone.error", {{"diagnostic", diagnostic.to_string()}});
    } else {
      logger.warn("zone.warning", {{"diagnostic", diagnostic.to_string()}});
    }
  }
  for (const auto& zone : load.loaded) {
    logger.info("zone.loaded", {{"origin", zone.origin.to_text()},
                                {"serial", std::to_string(zone.serial)},
                                {"records", std::to_string(zone.records)},
                                {"file", zone.file}});
  }
}

void print_embedded_hint(const net::SocketAddress& address) {
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
}

class ServeRun {
 public:
  ServeRun(ServeOptions options, config::Config config, base::Logger& logger)
      : options_(std::move(options)), config_(std::move(config)), logger_(logger), query_log_(config_.log.queries) {}

  int run(const sigset_t& signals) {
    logger_.info("serve.start", {{"config", config_.source}, {"zones", std::to_string(config_.zones.size())}});
    config::ZoneSetLoad load = config::load_zones(config_.zones);
    log_zone_load(logger_, load);
    if (!load.zones) {
      logger_.error("serve.failed", {{"reason", "a zone did not load"}});
      return 1;
    }
    zones_.store(load.zones);

    auto server = net::NetServer::start(net_options(), [this](auto query, auto transport, const auto& client,
                                                              auto& response) {
      return answer(query, transport, client, response);
    });
    if (!server) {
      logger_.error("serve.failed", {{"reason", server.error().message}});
      return 1;
    }
    for (const auto& address : (*server)->addresses()) {
      logger_.info("listen", {{"address", net::format_address(address.storage)}, {"transports", "udp,tcp"}});
    }
    if (!config_.pid_file.empty()) {
      auto written = write_pid_file(config_.pid_file, ::getpid());
      if (!written) logger_.warn("pid_file.failed", {{"reason", written.error().message}});
    }
    if (serves_embedded_default(options_)) print_embedded_hint((*server)->addresses().front());
    logger_.info("serve.ready", {{"threads", std::to_string(config_.threads)}});

    wait_for_stop(signals);
    (*server)->stop();
    if (!config_.pid_file.empty()) ::unlink(config_.pid_file.c_str());
    logger_.info("serve.stop");
    return 0;
  }

 private:
  net::NetOptions net_options() const {
    net::NetOptions options;
    for (const auto& listen : config_.listen) options.listen.push_back(listen.address);
    options.threads = config_.threads;
    options.tcp = config_.tcp;
    return options;
  }

  bool answer(std::span<const std::uint8_t> query, net::Transport transport, const sockaddr_storage& client,
              std::vector<std::uint8_t>& response) const {
    std::shared_ptr<const auth::ZoneSet> zones = zones_.load();
    bool udp = transport == net::Transport::kUdp;
    auth::QueryOutcome outcome =
        auth::answer_query(*zones, query, udp ? auth::Transport::kUdp : auth::Transport::kTcp, response);
    if (query_log_.load(std::memory_order_relaxed)) {
      logger_.info("query", {{"client", net::format_address(client)},
                             {"qname", outcome.qname.to_text()},
                             {"qtype", dns::type_to_text(outcome.qtype)},
                             {"rcode", outcome.respond ? dns::rcode_to_text(outcome.rcode) : "dropped"},
                             {"transport", udp ? "udp" : "tcp"}});
    }
    return outcome.respond;
  }

  void wait_for_stop(const sigset_t& signals) {
    while (true) {
      siginfo_t info{};
      int signo = ::sigwaitinfo(&signals, &info);
      if (signo == SIGHUP) {
        reload();
      } else if (signo == SIGTERM || signo == SIGINT) {
        logger_.info("serve.stopping", {{"signal", signo == SIGTERM ? "SIGTERM" : "SIGINT"}});
        return;
      }
    }
  }

  // Everything is read and checked before anything is swapped, so a failure anywhere leaves
  // the running data untouched.
  void reload() {
    logger_.info("reload.start");
    config::Config next;
    try {
      next = resolve_serve_config(options_);
    } catch (const config::ConfigError& e) {
      logger_.error("reload.failed", {{"reason", e.what()}});
      return;
    }
    config::ZoneSetLoad load = config::load_zones(next.zones);
    log_zone_load(logger_, load);
    if (!load.zones) {
      logger_.error("reload.failed", {{"reason", "a zone did not load; still serving the previous zones"}});
      return;
    }
    zones_.store(load.zones);
    query_log_.store(next.log.queries, std::memory_order_relaxed);
    if (!same_listeners(next)) {
      logger_.warn("reload.restart_needed", {{"reason", "listen, threads and tcp settings change only on restart"}});
    }
    logger_.info("reload.ok", {{"zones", std::to_string(load.loaded.size())}});
  }

  bool same_listeners(const config::Config& next) const {
    if (next.listen.size() != config_.listen.size() || next.threads != config_.threads ||
        next.tcp.idle_timeout != config_.tcp.idle_timeout || next.tcp.max_connections != config_.tcp.max_connections) {
      return false;
    }
    for (std::size_t i = 0; i < next.listen.size(); ++i) {
      if (next.listen[i].text != config_.listen[i].text) return false;
    }
    return true;
  }

  ServeOptions options_;
  config::Config config_;
  base::Logger& logger_;
  std::atomic<std::shared_ptr<const auth::ZoneSet>> zones_;
  std::atomic<bool> query_log_;
};

void run_serve(const ServeOptions& options) {
  // Blocked before any thread starts, so every thread inherits the mask and only
  // sigwaitinfo in the main thread ever sees these signals.
  sigset_t signals = control_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  int status = 1;
  try {
    config::Config config = resolve_serve_config(options);
    LogSink sink(config.log.file);
    base::Logger logger(sink.file(), config.log.level);
    ServeRun run(options, std::move(config), logger);
    status = run.run(signals);
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
  command->callback([options] { run_serve(*options); });
}

}  // namespace cutover::cmd
