// Starting E13's authority (`cutover serve --config` with views) and reading its query log.
#include "lab/split/split_lab.h"

#include <sys/stat.h>

#include <cctype>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "base/clock.h"
#include "client/query.h"
#include "lab/serve_process.h"

namespace cutover::lab {
namespace {

// The zone as one population sees it: every name under src. and ecs. (wildcards, so cases
// need no setup) answers `src` and `ecs` respectively. Its negative TTL is short.
std::string zone_text(const char* src, const char* ecs) {
  return fmt::format(
      "$ORIGIN {0}\n$TTL {1}\n"
      "@      IN SOA ns.{0} hostmaster.{0} 1 3600 600 86400 5\n"
      "@      IN NS  ns\n"
      "ns     IN A   127.0.0.1\n"
      "*.src  IN A   {2}\n"
      "*.ecs  IN A   {3}\n",
      SplitLab::kZone, SplitLab::kTtl, src, ecs);
}

// Views in order: a-src (A's network as the source address), then a-ecs (A's network in a
// trusted resolver's Client Subnet: A's answer for ecs. names only, since a source-address
// view cannot see A behind a resolver); the default zone answers B's. Asked directly, A gets
// a-src, which answers A's for both. The resolvers query from 127.0.0.1, the trusted address.
std::string config_text() {
  return fmt::format(
      "log: {{queries: true}}\n"
      "client-subnet: {{trust: [127.0.0.1]}}\n"
      "zones:\n  - {{origin: {0}, file: default.zone}}\n"
      "views:\n"
      "  - name: a-src\n    match-clients: [{1}]\n    zones: [{{origin: {0}, file: a-src.zone}}]\n"
      "  - name: a-ecs\n    match-clients: [{1}]\n    ecs: true\n    zones: [{{origin: {0}, file: a-ecs.zone}}]\n",
      SplitLab::kZone, SplitLab::kNetworkA);
}

}  // namespace

std::string SplitLab::describe() const {
  return fmt::format("E13 split-horizon authority (cutover serve with views, zone {}) on 127.0.0.1:{}, log {}", kZone,
                     dns_port_, log_path_);
}

const FixtureKind& split_fixture() {
  static const FixtureKind kKind{"E13 split-horizon authority", [](const FixtureSetup& setup) {
                                   return as_fixture(SplitLab::start(setup.cutover_binary, setup.work_dir));
                                 }};
  return kKind;
}

net::SocketAddress SplitLab::dns_address() const {
  return *client::parse_server("127.0.0.1:" + std::to_string(dns_port_));
}

std::vector<std::string> SplitLab::views_for(const std::string& qname) const {
  std::ifstream in(log_path_);
  std::vector<std::string> views;
  std::string line;
  // Compared in lowercase: some resolvers randomise the case of their questions (Knot
  // Resolver's 0x20), and the log keeps the case each query had.
  auto lower = [](std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
  };
  std::string needle = " qname=" + lower(qname) + " ";
  while (std::getline(in, line)) {
    if (line.find(" INFO query ") == std::string::npos || lower(line).find(needle) == std::string::npos) continue;
    auto at = line.find(" view=");
    views.push_back(at == std::string::npos ? "-" : line.substr(at + 6, line.find(' ', at + 6) - at - 6));
  }
  return views;
}

base::Result<std::unique_ptr<SplitLab>> SplitLab::start(const std::string& cutover_binary, const std::string& work_dir) {
  std::unique_ptr<SplitLab> lab(new SplitLab());
  std::string dir = work_dir + "/e13";
  ::mkdir(dir.c_str(), 0755);
  const std::pair<const char*, std::string> files[] = {
      {"default.zone", zone_text(kAnswerB, kAnswerB)},
      {"a-ecs.zone", zone_text(kAnswerB, kAnswerA)},
      {"a-src.zone", zone_text(kAnswerA, kAnswerA)},
      {"cutover.yaml", config_text()},
  };
  for (const auto& [file, text] : files) {
    if (auto written = write_text(dir + "/" + file, text); !written) return written.error();
  }
  lab->log_path_ = dir + "/cutover-serve.log";
  auto started = start_cutover_serve(cutover_binary, dir, lab->log_path_, {}, kZone, dns::RRType::SOA, "views");
  if (!started) return started.error();
  lab->server_ = std::move(started->process);
  lab->dns_port_ = started->port;
  return lab;
}

}  // namespace cutover::lab
