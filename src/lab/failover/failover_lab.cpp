// Starting E10's pool server (`cutover serve --config`) over endpoints the lab owns.
#include "lab/failover/failover_lab.h"

#include <sys/stat.h>

#include <cmath>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "client/query.h"
#include "lab/serve_process.h"

namespace cutover::lab {
namespace {

std::string duration_text(double seconds) { return fmt::format("{}ms", std::lround(seconds * 1000)); }

// The zone that holds the pools; its negative TTL is short so a probe name leaves no trace.
std::string zone_text() {
  return fmt::format(
      "$ORIGIN {0}\n$TTL 60\n"
      "@   IN SOA ns.{0} hostmaster.{0} 1 3600 600 86400 5\n"
      "@   IN NS  ns\n"
      "ns  IN A   127.0.0.1\n",
      FailoverLab::kZone);
}

}  // namespace

std::string FailoverLab::pool_name(const std::string& tag, std::uint32_t ttl) {
  return fmt::format("ttl{}.{}.{}", ttl, tag, kZone);
}

std::string FailoverLab::describe() const {
  return fmt::format("E10 pool server (cutover serve, zone {}) on 127.0.0.1:{}, log {}", kZone, dns_port_, log_path_);
}

const FixtureKind& failover_fixture() {
  static const FixtureKind kKind{"E10 pool server", [](const FixtureSetup& setup) {
                                   return as_fixture(FailoverLab::start(setup.cutover_binary, setup.work_dir,
                                                                        setup.resolver_tags));
                                 }};
  return kKind;
}

net::SocketAddress FailoverLab::dns_address() const {
  return *client::parse_server("127.0.0.1:" + std::to_string(dns_port_));
}

base::Status FailoverLab::open_endpoints(const std::vector<std::string>& tags) {
  for (const auto& tag : tags) {
    for (std::uint32_t ttl : kTtls) {
      auto primary = endpoints_.open(kPrimary);
      if (!primary) return primary.error();
      auto backup = endpoints_.open(kBackup);
      if (!backup) return backup.error();
      pools_[pool_name(tag, ttl)] = {tag, ttl, *primary, *backup};
    }
  }
  return {};
}

std::string FailoverLab::config_text() const {
  std::string text = fmt::format("zones:\n  - origin: {}\n    file: e10.zone\npools:\n", kZone);
  for (const auto& [name, pool] : pools_) {
    text += fmt::format(
        "  {}-ttl{}:\n"
        "    name: {}\n"
        "    shape: failover\n"
        "    ttl: {}\n"
        "    check: {{type: tcp, interval: {}, timeout: {}, fall: {}, rise: {}}}\n"
        "    endpoints:\n"
        "      - {{address: {}, port: {}, priority: 1}}\n"
        "      - {{address: {}, port: {}, priority: 2}}\n",
        pool.tag, pool.ttl, name.substr(0, name.size() - 1), pool.ttl, duration_text(check_.interval),
        duration_text(check_.timeout), check_.fall, check_.rise, kPrimary, pool.primary_port, kBackup, pool.backup_port);
  }
  return text;
}

base::Result<std::unique_ptr<FailoverLab>> FailoverLab::start(const std::string& cutover_binary,
                                                              const std::string& work_dir,
                                                              const std::vector<std::string>& tags,
                                                              const FailoverCheck& check) {
  std::unique_ptr<FailoverLab> lab(new FailoverLab());
  lab->check_ = check;
  if (auto opened = lab->open_endpoints(tags); !opened) return opened.error();
  std::string dir = work_dir + "/e10";
  ::mkdir(dir.c_str(), 0755);
  for (const auto& [file, text] : {std::pair{std::string("e10.zone"), zone_text()},
                                   std::pair{std::string("cutover.yaml"), lab->config_text()}}) {
    if (auto written = write_text(dir + "/" + file, text); !written) return written.error();
  }
  lab->log_path_ = dir + "/cutover-serve.log";
  std::string probe_name = pool_name(tags.empty() ? "none" : tags.front(), kTtls.front());
  auto started = start_cutover_serve(cutover_binary, dir, lab->log_path_, {"--threads", "2"}, probe_name,
                                     dns::RRType::A, "pools");
  if (!started) return started.error();
  lab->server_ = std::move(started->process);
  lab->dns_port_ = started->port;
  return lab;
}

base::Result<std::int64_t> FailoverLab::kill_primary(const std::string& tag, std::uint32_t ttl) {
  auto it = pools_.find(pool_name(tag, ttl));
  if (it == pools_.end()) return base::make_error(base::ErrorCode::kNotFound, "no E10 pool " + pool_name(tag, ttl));
  return endpoints_.close(kPrimary, it->second.primary_port);
}

}  // namespace cutover::lab
