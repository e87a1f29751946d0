// Verdict-to-answer latency of a cluster (docs/cluster.md, "Measured"): three real etcd
// members, three `cutover serve` with `local-checker: false` and `checkers: {quorum: K}`,
// three `cutover checker` agents probing one TCP endpoint, all on loopback. The endpoint's
// listener is closed and opened again N times; for each change the program records
//  - the probe that decided it: each vantage's first verdict with the new state, as etcd's
//    watch delivers it (its probe_time), the one that made the quorum rule flip;
//  - when each server's answer changed: UDP queries every millisecond to each server;
// and prints, per server and over all, the median and maximum of (answer changed − deciding
// probe), plus the whole detection time (listener toggled → answer changed) against the
// window [(F−1)·I + T, F·I + T] plus that latency. A benchmark, not a test: it asserts
// nothing, and reports. Usage:
//   cutover_cluster_latency --cutover build/src/cmd/cutover [--changes 20] [--quorum 2]
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "client/query.h"
#include "dns/rdata.h"
#include "cluster/etcd_client.h"
#include "cluster/etcd_test_support.h"
#include "cluster/verdict.h"
#include "support/process.h"
#include "support/server.h"

namespace {

using namespace cutover;
using SysClock = std::chrono::system_clock;

constexpr int kEtcdBasePort = 27581;  // clients 27581, 27583, 27585; peers +1
constexpr const char* kPrimary = "127.0.0.81";
constexpr const char* kBackup = "127.0.0.82";
constexpr int kInterval_ms = 200;
constexpr int kTimeout_ms = 100;
constexpr int kFall = 1;

// A TCP listener that accepts and closes; open() and close() toggle the endpoint.
class Endpoint {
 public:
  Endpoint(const char* address, std::uint16_t port) : address_(address), port_(port) {}
  ~Endpoint() { close(); }
  bool open() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in where{};
    where.sin_family = AF_INET;
    where.sin_port = htons(port_);
    ::inet_pton(AF_INET, address_, &where.sin_addr);
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&where), sizeof(where)) != 0 || ::listen(fd_, 128) != 0) return false;
    acceptor_ = std::thread([fd = fd_] {
      while (true) {
        int connection = ::accept(fd, nullptr, nullptr);
        if (connection < 0) return;
        ::close(connection);
      }
    });
    return true;
  }
  void close() {
    if (fd_ < 0) return;
    ::shutdown(fd_, SHUT_RDWR);
    if (acceptor_.joinable()) acceptor_.join();
    ::close(fd_);
    fd_ = -1;
  }

 private:
  const char* address_;
  std::uint16_t port_;
  int fd_ = -1;
  std::thread acceptor_;
};

SysClock::time_point parse_rfc3339(const std::string& text) {
  std::tm utc{};
  int millis = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d.%dZ", &utc.tm_year, &utc.tm_mon, &utc.tm_mday, &utc.tm_hour,
                  &utc.tm_min, &utc.tm_sec, &millis) != 7) {
    return {};
  }
  utc.tm_year -= 1900;
  utc.tm_mon -= 1;
  return SysClock::from_time_t(timegm(&utc)) + std::chrono::milliseconds(millis);
}

struct Stats {
  double median = 0;
  double max = 0;
};
Stats stats(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  return {values[values.size() / 2], values.back()};
}

}  // namespace

int main(int argc, char** argv) {
  std::string binary = CUTOVER_BINARY;
  int changes = 20;
  int quorum = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--cutover") binary = argv[i + 1];
    else if (flag == "--changes") changes = std::atoi(argv[i + 1]);
    else if (flag == "--quorum") quorum = std::atoi(argv[i + 1]);
    else {
      std::fprintf(stderr, "usage: %s [--cutover PATH] [--changes N] [--quorum K]\n", argv[0]);
      return 2;
    }
  }
  if (!cluster::testing::have_etcd()) {
    std::fprintf(stderr, "etcd is not installed (Debian package etcd-server)\n");
    return 2;
  }
  const std::uint16_t endpoint_port = 27590;
  Endpoint primary(kPrimary, endpoint_port);
  Endpoint backup(kBackup, endpoint_port);
  if (!primary.open() || !backup.open()) {
    std::fprintf(stderr, "cannot listen on %s/%s:%u\n", kPrimary, kBackup, endpoint_port);
    return 2;
  }
  cluster::testing::EtcdCluster etcd(3, kEtcdBasePort);
  if (!etcd.wait_healthy()) {
    std::fprintf(stderr, "etcd did not become healthy; logs in %s\n", etcd.dir().c_str());
    return 2;
  }
  std::string dir = testing::make_temp_dir("cutover-cluster-latency");
  testing::write_file(dir + "/example.test.zone",
                      "$ORIGIN example.test.\n$TTL 60\n@ IN SOA ns1 hostmaster 1 3600 600 86400 60\n"
                      "@ IN NS ns1\nns1 IN A 127.0.0.1\n");
  std::vector<std::unique_ptr<testing::CutoverServer>> servers;
  for (int i = 0; i < 3; ++i) {
    std::string config = fmt::format("{}/dns{}.yaml", dir, i + 1);
    testing::write_file(
        config, fmt::format("control: {{listen: \"127.0.0.1:0\"}}\n"
                            "cluster:\n  etcd: [{}]\n  vantage: dns{}\n  local-checker: false\n"
                            "zones:\n  - {{origin: example.test., file: example.test.zone}}\n"
                            "pools:\n  web:\n    name: web.example.test\n    shape: failover\n    ttl: 5\n"
                            "    checkers: {{quorum: {}}}\n"
                            "    check: {{type: tcp, interval: {}ms, timeout: {}ms, fall: {}, rise: 1}}\n"
                            "    endpoints:\n      - {{address: {}, port: {}, priority: 1}}\n"
                            "      - {{address: {}, port: {}, priority: 2}}\n",
                            etcd.urls(), i + 1, quorum, kInterval_ms, kTimeout_ms, kFall, kPrimary, endpoint_port,
                            kBackup, endpoint_port));
    servers.push_back(std::make_unique<testing::CutoverServer>(
        testing::ServerSpec{.zones = {}, .config = config, .probe_name = "example.test.", .port = 0,
                            .extra_listen = {}, .extra_args = {}}));
  }
  std::vector<std::unique_ptr<testing::ChildProcess>> checkers;
  for (int i = 0; i < 3; ++i) {
    checkers.push_back(std::make_unique<testing::ChildProcess>(
        std::vector<std::string>{binary, "checker", "--config", dir + "/dns1.yaml", "--etcd", etcd.urls(), "--vantage",
                                 fmt::format("v{}", i)},
        dir + fmt::format("/checker{}.log", i)));
  }

  // Every verdict on the primary as the watch delivers it: vantage, state, probe time.
  struct Seen {
    std::string vantage;
    health::HealthState state;
    SysClock::time_point probe;
    SysClock::time_point delivered;
  };
  std::mutex seen_mutex;
  std::vector<Seen> seen;
  std::atomic<bool> stopping{false};
  auto members = cluster::parse_etcd_urls(etcd.urls());
  cluster::EtcdClient watcher(*members, std::chrono::milliseconds(1000));
  const std::string prefix = cluster::verdicts_prefix(cluster::kDefaultPrefix);
  std::thread watch([&] {
    while (!stopping) {
      (void)watcher.watch_prefix(
          prefix, 0,
          [&](const std::vector<cluster::WatchEvent>& events, std::int64_t) {
            for (const auto& event : events) {
              if (event.deleted) continue;
              auto verdict = cluster::parse_verdict(cluster::kDefaultPrefix, event.kv.key, event.kv.value);
              if (!verdict || verdict->endpoint != kPrimary) continue;
              std::lock_guard lock(seen_mutex);
              seen.push_back({verdict->vantage, verdict->state, parse_rfc3339(verdict->probe_time), SysClock::now()});
            }
          },
          [&] { return stopping.load(); }, std::chrono::milliseconds(2000));
    }
  });

  auto dns_name = dns::Name::from_text("web.example.test.");
  auto answers = [&](std::size_t server) -> std::string {
    auto address = client::parse_server(fmt::format("127.0.0.1:{}", servers[server]->port()));
    client::QueryOptions options;
    options.timeout = std::chrono::milliseconds(200);
    auto reply = client::query(*address, *dns_name, dns::RRType::A, options);
    if (!reply) return "error";
    for (const auto& record : reply->response.answers) {
      if (record.type == dns::RRType::A) return dns::rdata_to_text(record.type, record.rdata);
    }
    return "empty";
  };
  // Wait until all three vantages report and every server answers the primary.
  auto settle_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < settle_deadline) {
    bool all = true;
    for (std::size_t s = 0; s < servers.size(); ++s) all = all && answers(s) == kPrimary;
    if (all) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }

  std::vector<std::vector<double>> latency(servers.size());
  std::vector<double> detection;
  int missed = 0;
  for (int change = 0; change < changes; ++change) {
    bool going_down = change % 2 == 0;
    const std::string expect = going_down ? kBackup : kPrimary;
    const health::HealthState new_state = going_down ? health::HealthState::kDown : health::HealthState::kUp;
    // Start each change at a random phase against the probes.
    std::this_thread::sleep_for(std::chrono::milliseconds(300 + (change * 37) % kInterval_ms));
    std::size_t seen_before = 0;
    {
      std::lock_guard lock(seen_mutex);
      seen_before = seen.size();
    }
    SysClock::time_point toggled = SysClock::now();
    if (going_down) primary.close();
    else if (!primary.open()) return 2;
    std::vector<SysClock::time_point> changed(servers.size());
    std::size_t done = 0;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (done < servers.size() && std::chrono::steady_clock::now() < deadline) {
      for (std::size_t s = 0; s < servers.size(); ++s) {
        if (changed[s] != SysClock::time_point{}) continue;
        if (answers(s) == expect) {
          changed[s] = SysClock::now();
          ++done;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (done < servers.size()) {
      ++missed;
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the slowest vantages' events
    std::map<std::string, SysClock::time_point> first_probe;
    {
      std::lock_guard lock(seen_mutex);
      for (std::size_t i = seen_before; i < seen.size(); ++i) {
        if (seen[i].state == new_state && !first_probe.contains(seen[i].vantage)) first_probe[seen[i].vantage] = seen[i].probe;
      }
    }
    // The quorum rule checks down first (docs/cluster.md, "Quorum rules"): down needs K down
    // verdicts; up needs K up and fewer than K down, i.e. max(K, N - K + 1) up of N.
    const int vantages = 3;
    const int deciding_index = going_down ? quorum : std::max(quorum, vantages - quorum + 1);
    if (static_cast<int>(first_probe.size()) < deciding_index) {
      ++missed;
      continue;
    }
    std::vector<SysClock::time_point> probes;
    for (const auto& [vantage, at] : first_probe) probes.push_back(at);
    std::sort(probes.begin(), probes.end());
    SysClock::time_point deciding = probes[deciding_index - 1];
    for (std::size_t s = 0; s < servers.size(); ++s) {
      latency[s].push_back(std::chrono::duration<double, std::milli>(changed[s] - deciding).count());
      detection.push_back(std::chrono::duration<double, std::milli>(changed[s] - toggled).count());
    }
  }
  stopping = true;
  checkers.clear();  // ends the watch's stream soon (their leases' keys are deleted)
  watch.join();

  std::vector<double> all;
  std::printf("cluster verdict-to-answer latency: 3 etcd, 3 servers, 3 checkers, quorum %d of 3, %d changes "
              "(%d not measured)\n",
              quorum, changes, missed);
  std::printf("%-8s %8s %10s %8s\n", "server", "changes", "median ms", "max ms");
  for (std::size_t s = 0; s < servers.size(); ++s) {
    Stats st = stats(latency[s]);
    std::printf("dns%-5zu %8zu %10.1f %8.1f\n", s + 1, latency[s].size(), st.median, st.max);
    all.insert(all.end(), latency[s].begin(), latency[s].end());
  }
  Stats st = stats(all);
  std::printf("%-8s %8zu %10.1f %8.1f\n", "all", all.size(), st.median, st.max);
  Stats d = stats(detection);
  std::printf("detection (listener toggled -> answer changed): median %.1f ms, max %.1f ms; window "
              "[(F-1)*I + t, F*I + t] + latency with F=%d, I=%d ms and t the failing probe's own time (a refused "
              "connection: about 0, so [%d, %d] ms; a silent endpoint: T=%d ms)\n",
              d.median, d.max, kFall, kInterval_ms, (kFall - 1) * kInterval_ms, kFall * kInterval_ms, kTimeout_ms);
  return missed == changes ? 1 : 0;
}
