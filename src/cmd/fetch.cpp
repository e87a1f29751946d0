// `cutover fetch URL`: the reference client (src/client/fetcher.h, docs/client.md). One GET
// prints the body; --count N --interval S repeats on a fixed schedule; --log-json prints one
// JSON object per request (the lab's per-request log); --trace prints every clock to stderr.
// Exit 0 every request got a response, 1 some did not, 2 none did or it could not run.
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "client/fetcher.h"
#include "client/resolv_conf.h"
#include "cmd/commands.h"
#include "cmd/output.h"

namespace cutover::cmd {
namespace {

struct FetchOptions {
  std::string url;
  double interval = 1.0;
  int count = 1;
  bool log_json = false;
  bool trace = false;
  double connect_timeout = 5.0;
  double attempt_delay = 0.25;
  double timeout = 10.0;
  double drain_deadline = 5.0;
  bool no_keepalive = false;
  std::string resolv_conf = "/etc/resolv.conf";
  Output output{"fetch"};
};

std::chrono::milliseconds to_ms(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0 + 0.5));
}

// The per-request log line, keys in the documented order (docs/client.md).
nlohmann::ordered_json record_json(const client::FetchRecord& record) {
  nlohmann::ordered_json line;
  line["t"] = record.time;
  line["peer"] = record.peer ? nlohmann::ordered_json(*record.peer) : nlohmann::ordered_json(nullptr);
  line["new_conn"] = record.new_connection ? nlohmann::ordered_json(*record.new_connection) : nlohmann::ordered_json(nullptr);
  auto origin = record.origin();
  line["origin"] = origin ? nlohmann::ordered_json(*origin) : nlohmann::ordered_json(nullptr);
  line["error"] = record.error == client::FetchError::kNone ? nlohmann::ordered_json(nullptr)
                                                             : nlohmann::ordered_json(client::fetch_error_text(record.error));
  line["detail"] = record.detail;
  return line;
}

std::string dump(const nlohmann::ordered_json& value) {
  // An origin's body need not be UTF-8; replace what is not rather than throw.
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

ExitCode run_fetch(const FetchOptions& options) {
  const Output& output = options.output;
  auto fail = [&](const std::string& message) { output.fail(ExitCode::kCouldNotRun, message); };
  auto url = client::parse_url(options.url);
  if (!url) fail(url.error().message);
  // An address in the URL needs no resolver, so a missing resolv.conf does not stop it.
  auto resolver = url->host_is_address ? client::parse_resolv_conf("", "(no resolver needed)")
                                       : client::read_resolv_conf(options.resolv_conf);
  if (!resolver) fail(resolver.error().message);

  client::FetchOptions fetch_options;
  fetch_options.connect.connect_timeout = to_ms(options.connect_timeout);
  fetch_options.connect.attempt_delay = to_ms(options.attempt_delay);
  fetch_options.response_timeout = to_ms(options.timeout);
  fetch_options.pool.drain_deadline = to_ms(options.drain_deadline);
  fetch_options.keep_alive = !options.no_keepalive;

  base::RealClock clock;
  client::TraceSink trace;
  if (options.trace) {
    trace = [&clock](const std::string& line) {
      double now = std::chrono::duration<double>(clock.wall_now().time_since_epoch()).count();
      std::fprintf(stderr, "%.6f %s\n", now, line.c_str());
      std::fflush(stderr);
    };
  }
  client::Fetcher fetcher(*resolver, fetch_options, clock, trace);

  nlohmann::ordered_json requests = nlohmann::ordered_json::array();
  int answered = 0;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < options.count; ++i) {
    // A fixed schedule: request i starts at i * interval, however long the earlier ones took.
    std::this_thread::sleep_until(start + i * to_ms(options.interval));
    client::FetchRecord record = fetcher.fetch(*url);
    if (record.response) ++answered;
    if (output.json()) {
      requests.push_back(record_json(record));
    } else if (options.log_json) {
      std::fputs((dump(record_json(record)) + "\n").c_str(), stdout);
      std::fflush(stdout);
    } else if (record.response) {
      std::fwrite(record.response->body.data(), 1, record.response->body.size(), stdout);
      std::fflush(stdout);
    } else {
      std::fprintf(stderr, "cutover fetch: %s: %s: %s\n", options.url.c_str(),
                   client::fetch_error_text(record.error).c_str(), record.detail.c_str());
    }
  }
  ExitCode code = answered == options.count ? ExitCode::kOk : answered > 0 ? ExitCode::kFindings : ExitCode::kCouldNotRun;
  if (output.json()) {
    nlohmann::json document = nlohmann::json::parse(dump(nlohmann::ordered_json{
        {"command", "fetch"}, {"url", options.url}, {"requests", requests}, {"answered", answered},
        {"failed", options.count - answered}}));
    if (code == ExitCode::kCouldNotRun) {
      output.fail(code, fmt::format("no request got a response ({}: {})", requests.back().value("error", "other"),
                                    requests.back().value("detail", "")),
                  document);
    }
    output.document(document);
  }
  return code;
}

}  // namespace

void add_fetch_command(CLI::App& app) {
  auto options = std::make_shared<FetchOptions>();
  CLI::App* command = app.add_subcommand(
      "fetch", "The reference client: HTTP GET through a TTL-honouring cache, Happy Eyeballs and a pool that follows DNS");
  command->add_option("url", options->url, "http://HOST[:PORT][/PATH] (plain HTTP only)")->required();
  command->add_option("--interval", options->interval, "Seconds between request starts (default 1)")
      ->check(CLI::Range(0.0, 3600.0));
  command->add_option("--count", options->count, "Requests to make (default 1)")->check(CLI::Range(1, 1000000));
  auto* log_json = command->add_flag("--log-json", options->log_json,
                                     "One JSON object per request on stdout: t, peer, new_conn, origin, error, detail");
  command->add_option("--connect-timeout", options->connect_timeout, "Seconds per connect attempt (default 5)")
      ->check(CLI::Range(0.01, 600.0));
  command->add_option("--attempt-delay", options->attempt_delay,
                      "Seconds between connect attempts, RFC 8305 Connection Attempt Delay (default 0.25)")
      ->check(CLI::Range(0.01, 2.0));
  command->add_option("--timeout", options->timeout, "Seconds from sending a request to the end of its response (default 10)")
      ->check(CLI::Range(0.01, 3600.0));
  command->add_option("--drain-deadline", options->drain_deadline,
                      "Seconds a connection in use may finish its request once its address left the answer (default 5)")
      ->check(CLI::Range(0.0, 3600.0));
  command->add_flag("--no-keepalive", options->no_keepalive, "A new connection for every request (Connection: close)");
  command->add_flag("--trace", options->trace,
                    "Print every clock to stderr as it happens: lookups, cache hits and misses, connect attempts, pool");
  command->add_option("--resolv-conf", options->resolv_conf,
                      "Resolver configuration to read (default /etc/resolv.conf; nameserver may be ADDR:PORT)");
  options->output.add_json_flag(*command, "Print all requests as one JSON document at the end");
  log_json->excludes(command->get_option("--json"));
  command->callback([options] { Output::finish(run_fetch(*options)); });
}

}  // namespace cutover::cmd
