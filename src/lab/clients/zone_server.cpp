// Starting E12's authoritative servers inside a client case's namespace.
#include "lab/clients/zone_server.h"

#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "client/query.h"
#include "lab/clients/client.h"

namespace cutover::lab {
namespace {

constexpr int kStartAttempts = 3;
constexpr std::int64_t kStartTimeoutNs = 15'000'000'000;

// The production server's config: one static zone answered in cyclic order (docs/config.md,
// zones[].rrset-order), and the pools the case asks for.
std::string cutover_config(const ZoneServerSpec& spec) {
  return fmt::format("zones:\n  - origin: {}\n    file: zone.db\n    rrset-order: cyclic\n{}", spec.zone,
                     spec.pools_yaml);
}

// BIND as an authority only, answering the zone in cyclic order (named.conf(5), rrset-order).
std::string bind_config(const ZoneServerSpec& spec, const std::string& dir, std::uint16_t port) {
  return fmt::format(
      "options {{\n  directory \"{0}\";\n  pid-file \"{0}/named.pid\";\n  session-keyfile \"{0}/session.key\";\n"
      "  managed-keys-directory \"{0}\";\n  listen-on port {1} {{ 127.0.0.1; }};\n  listen-on-v6 {{ none; }};\n"
      "  recursion no;\n  allow-query {{ any; }};\n  dnssec-validation no;\n  notify no;\n"
      "  rrset-order {{ order cyclic; }};\n}};\ncontrols {{ }};\n"
      "zone \"{2}\" {{ type primary; file \"{0}/zone.db\"; }};\n",
      dir, port, spec.zone);
}

}  // namespace

std::string zone_server_kind_text(ZoneServerSpec::Kind kind) {
  return kind == ZoneServerSpec::Kind::kBind ? "bind" : "cutover";
}

net::SocketAddress ZoneServer::address() const {
  return *client::parse_server("127.0.0.1:" + std::to_string(port_));
}

base::Result<std::unique_ptr<ZoneServer>> ZoneServer::start(const ZoneServerSpec& spec, const std::string& dir,
                                                            const std::vector<std::string>& exec_prefix,
                                                            const std::string& cutover_binary,
                                                            const std::string& probe_name) {
  std::unique_ptr<ZoneServer> server(new ZoneServer());
  ::mkdir(dir.c_str(), 0755);
  if (auto written = write_text(dir + "/zone.db", spec.zone_text); !written) return written.error();
  bool bind = spec.kind == ZoneServerSpec::Kind::kBind;
  std::vector<std::string> version_argv = bind ? std::vector<std::string>{"named", "-v"}
                                               : std::vector<std::string>{cutover_binary, "--version"};
  CommandOutput version = run_capture(version_argv);
  server->version_ = (bind ? "BIND " : "cutover ") + client_version_in(version.text);
  auto name = dns::Name::from_text(probe_name);
  if (!name) return name.error();
  server->log_path_ = dir + "/server.log";
  std::string last_error = "not started";
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    auto port = free_port();  // in the calling thread's namespace, where the server runs
    if (!port) return port.error();
    std::vector<std::string> argv = exec_prefix;
    if (bind) {
      if (auto written = write_text(dir + "/named.conf", bind_config(spec, dir, *port)); !written) return written.error();
      for (const char* arg : {"named", "-g", "-4", "-n", "1", "-c"}) argv.push_back(arg);
      argv.push_back(dir + "/named.conf");
    } else {
      if (auto written = write_text(dir + "/cutover.yaml", cutover_config(spec)); !written) return written.error();
      for (const auto& arg : {cutover_binary, std::string("serve"), std::string("--config"), dir + "/cutover.yaml",
                              std::string("--listen"), "127.0.0.1:" + std::to_string(*port), std::string("--threads"),
                              std::string("1")}) {
        argv.push_back(arg);
      }
    }
    auto child = ChildProcess::start(argv, server->log_path_, dir);
    if (!child) return child.error();
    server->process_ = std::move(*child);
    server->port_ = *port;
    client::QueryOptions options;
    options.timeout = std::chrono::milliseconds(300);
    std::int64_t deadline = base::monotonic_ns() + kStartTimeoutNs;
    while (base::monotonic_ns() < deadline && server->process_.running()) {
      auto reply = client::query(server->address(), *name, dns::RRType::A, options);
      if (reply && reply->response.header.rcode == 0 && !reply->response.answers.empty()) return server;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    last_error = fmt::format("{} on 127.0.0.1:{} did not answer {} within 15 s:\n{}", bind ? "named" : "cutover serve",
                             *port, probe_name, log_tail(server->log_path_));
    server->process_.stop(500);
  }
  return base::make_error(base::ErrorCode::kIo, last_error);
}

}  // namespace cutover::lab
