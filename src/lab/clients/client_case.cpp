// A client case's namespace, servers and client program.
#include "lab/clients/client_case.h"

#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"

namespace cutover::lab {

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::int64_t monotonic_at(double unix_seconds) {
  double offset = unix_now() - static_cast<double>(base::monotonic_ns()) / 1e9;
  return static_cast<std::int64_t>((unix_seconds - offset) * 1e9);
}

double unix_at(std::int64_t monotonic_ns) {
  double offset = unix_now() - static_cast<double>(base::monotonic_ns()) / 1e9;
  return static_cast<double>(monotonic_ns) / 1e9 + offset;
}

base::Result<std::unique_ptr<ClientCase>> ClientCase::open(ClientSuite& suite, const ClientCaseSetup& setup) {
  std::unique_ptr<ClientCase> world(new ClientCase());
  world->label_ = setup.label;
  world->dir_ = suite.work_dir() + "/" + setup.label;
  world->logs_dir_ = suite.logs_dir();
  ::mkdir(world->dir_.c_str(), 0755);
  auto ns = NetNamespace::create();
  if (!ns) return ns.error();
  world->ns_ = std::move(*ns);
  auto entered = world->ns_->enter();
  if (!entered) return entered.error();
  world->entered_ = std::make_unique<NetNamespace::Entered>(std::move(*entered));

  // The origins first: a pool's health checks (E12) find them listening from their first probe.
  for (const auto& options : setup.origins) {
    auto origin = Origin::start(options);
    if (!origin) return origin.error();
    world->origins_.push_back(std::move(*origin));
  }

  std::uint16_t upstream_port = 0;
  if (setup.zone_server) {
    auto server = ZoneServer::start(*setup.zone_server, world->dir_ + "/zone-server", world->ns_->exec_prefix(),
                                    suite.paths().cutover_binary, name("ready"));
    if (!server) return server.error();
    world->zone_server_ = std::move(*server);
    upstream_port = world->zone_server_->port();
  } else {
    AuthorityOptions authority{suite.paths().cutover_binary, "127.0.0.1", 0, world->dir_, "authority",
                               world->ns_->exec_prefix()};
    auto started = AuthorityProcess::start(authority);
    if (!started) return started.error();
    world->authority_ = std::move(*started);
    auto zone = world->authority_->put_zone(kZone, setup.negative_ttl, setup.negative_ttl);
    if (!zone) return zone.error();
    upstream_port = world->authority_->dns_port();
  }

  ResolverConfig config;
  config.upstream = {Upstream::Kind::kStub, kZone, "127.0.0.1", upstream_port};
  config.extra_lines = setup.resolver_lines;
  // Unbound rotates RRsets by default (rrset-roundrobin); the client cases need the order the
  // authority sends, so E7's dead address stays first.
  if (setup.resolver_keeps_order && suite.resolver()->name() == "unbound") {
    config.extra_lines.push_back("rrset-roundrobin: no");
  }
  auto resolver = ResolverInstance::start(*suite.resolver(), config, world->dir_ + "/resolver", name("ready"), nullptr,
                                          53, world->ns_->exec_prefix());
  if (!resolver) return resolver.error();
  world->resolver_ = std::move(*resolver);
  std::string resolv_conf = "nameserver 127.0.0.1\n";
  for (const auto& line : setup.resolv_conf_lines) resolv_conf += line + "\n";
  auto written = world->ns_->write_resolv_conf(resolv_conf);
  if (!written) return written.error();

  if (!setup.nft_rules.empty()) {
    auto loaded = world->ns_->load_rules(setup.nft_rules, world->dir_);
    if (!loaded) return loaded.error();
  }
  return world;
}

ClientCase::~ClientCase() {
  if (client_started_ && client_.pid() > 0) ::kill(-client_.pid(), SIGKILL);  // its group: curl_each's curls too
  client_.stop(0);
  for (auto& origin : origins_) origin->stop();
  if (resolver_) resolver_->stop();
  authority_.reset();
  zone_server_.reset();
  entered_.reset();
  ns_.reset();
}

base::Status ClientCase::start_client(const ClientAdapter& adapter, const ClientPaths& paths, const ClientInvocation& run) {
  stdout_path_ = logs_dir_ + "/" + label_ + ".jsonl";
  stderr_path_ = logs_dir_ + "/" + label_ + ".stderr";
  std::vector<std::string> argv = ns_->exec_prefix();
  std::vector<std::string> environment = adapter.environment(paths);
  if (!environment.empty()) {
    argv.push_back("env");
    argv.insert(argv.end(), environment.begin(), environment.end());
  }
  // The program's stderr goes to its own file, so stdout holds the per-request log alone.
  for (const char* arg : {"sh", "-c", "exec \"$@\" 2>\"$0\""}) argv.push_back(arg);
  argv.push_back(stderr_path_);
  for (auto& arg : adapter.command(paths, run)) argv.push_back(arg);
  auto child = ChildProcess::start(argv, stdout_path_, dir_);
  if (!child) return child.error();
  client_ = std::move(*child);
  client_started_ = true;
  return {};
}

void ClientCase::read_output() {
  std::ifstream in(stdout_path_, std::ios::binary);
  if (!in) return;
  in.seekg(static_cast<std::streamoff>(read_offset_));
  std::string chunk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (chunk.empty()) return;
  read_offset_ += chunk.size();
  double now = unix_now();
  partial_ += chunk;
  std::size_t newline = 0;
  while ((newline = partial_.find('\n')) != std::string::npos) {
    lines_.push_back(partial_.substr(0, newline));
    seen_.push_back(now);
    partial_.erase(0, newline + 1);
  }
}

bool ClientCase::wait_for_lines(std::size_t lines, double deadline) {
  while (true) {
    read_output();
    if (lines_.size() >= lines) return true;
    if (!client_.running()) {
      read_output();
      return lines_.size() >= lines;
    }
    if (unix_now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

bool ClientCase::wait_for_exit(double deadline) {
  while (client_.running() && unix_now() < deadline) {
    read_output();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  bool exited = !client_.running();
  if (!exited) ::kill(-client_.pid(), SIGKILL);
  client_.stop(0);
  read_output();
  if (!partial_.empty()) {  // a last line without its newline still counts as printed
    lines_.push_back(partial_);
    seen_.push_back(unix_now());
    partial_.clear();
  }
  return exited;
}

void ClientCase::record(CaseResult& result, double reference, RequestClock clock) {
  // The observations are derived from the times as the .seen file holds them (microseconds),
  // so that `lab check`, which reads that file, derives the same millisecond values.
  std::string seen_text;
  for (double at : seen_) seen_text += fmt::format("{:.6f}\n", at);
  std::ofstream(logs_dir_ + "/" + label_ + ".seen", std::ios::trunc) << seen_text;
  seen_ = parse_seen(seen_text);
  std::ofstream origins(logs_dir_ + "/" + label_ + ".origins.jsonl", std::ios::trunc);
  for (auto& origin : origins_) {
    for (const auto& request : origin->requests()) {
      nlohmann::json line = {{"t", request.t}, {"origin", origin->options().identity}, {"client", request.client},
                             {"connection", request.connection}, {"on_connection", request.on_connection}};
      origins << line.dump() << "\n";
    }
  }
  std::string text;
  for (const auto& line : lines_) text += line + "\n";
  RequestLog log = parse_request_log(text);
  result.observations = request_observations(log.requests, seen_of_requests(log, seen_), reference, clock);
  result.client_timeout.reset();
  result.details["client_log"] = "clients/" + label_ + ".jsonl";
  result.details["client_seen"] = "clients/" + label_ + ".seen";
  result.details["origin_log"] = "clients/" + label_ + ".origins.jsonl";
  result.details["reference_unix"] = reference;
  result.details["namespace"] = ns_->name();
  result.details["request_clock"] = clock == RequestClock::kStart ? "start" : "outcome";
  if (!log.garbage.empty()) result.details["garbage"] = log.garbage;
}

}  // namespace cutover::lab
