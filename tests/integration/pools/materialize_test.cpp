// Materialize mode end to end: a pool's health-checked answer written into the zone through
// the journaled write path, pushed by NOTIFY + IXFR to real NSD and Knot secondaries on
// loopback. Kills the primary endpoint and measures detection D (cutover itself changes its
// answer) and propagation P (each secondary follows); checks history names every pool write
// and override. Every wait is bounded; children are stopped by PID.
#include <unistd.h>

#include <cstdio>
#include <ctime>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <sstream>
#include <thread>

#include "pool_fixture.h"

namespace cutover::testing {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kPoolName = "web.pool.test";
constexpr const char* kPrimary = "127.0.0.11";
constexpr const char* kBackup = "127.0.0.12";

bool executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

// The pool zone with replication to `secondaries` and a materialized failover pool over
// the two endpoints (I = 200 ms, T = 150 ms, F = 2, R = 1; TTL 5 s).
void write_materialize_config(const PoolDir& dir, const HttpEndpoint& primary, const HttpEndpoint& backup,
                              const std::vector<std::uint16_t>& secondaries) {
  std::string notify;
  for (auto port : secondaries) notify += fmt::format("{}127.0.0.1:{}", notify.empty() ? "" : ", ", port);
  write_file(dir.config_path,
             fmt::format("control: {{listen: \"127.0.0.1:0\"}}\n"
                         "writes: {{journal: journal.db}}\n"
                         "zones:\n"
                         "  - origin: {}\n    file: pool.db\n    allow-transfer: [127.0.0.1]\n    notify: [{}]\n"
                         "pools:\n  web:\n    name: {}\n    serve: materialize\n    ttl: 5\n    check: {}\n"
                         "    endpoints:\n{}{}",
                         kPoolZone, notify, kPoolName, kFastHttpCheck, endpoint_yaml(primary, ", priority: 1"),
                         endpoint_yaml(backup, ", priority: 2")));
}

// A secondary server of pool.test. pulling from the primary at `primary_port`.
struct Secondary {
  std::string kind;
  std::uint16_t port = 0;
  std::unique_ptr<ChildProcess> process;
};

std::unique_ptr<ChildProcess> start_nsd(const std::string& dir, std::uint16_t port, std::uint16_t primary_port) {
  write_file(dir + "/nsd.conf",
             fmt::format("server:\n  ip-address: 127.0.0.1@{0}\n  port: {0}\n  username: \"\"\n  chroot: \"\"\n"
                         "  database: \"\"\n  zonesdir: \"{1}\"\n  pidfile: \"{1}/nsd.pid\"\n"
                         "  xfrdfile: \"{1}/xfrd.state\"\n  zonelistfile: \"{1}/zone.list\"\n"
                         "  rrl-ratelimit: 0\n  verbosity: 2\nremote-control:\n  control-enable: no\n"
                         "zone:\n  name: {2}\n  zonefile: \"pool.test.zone\"\n  allow-notify: 127.0.0.1 NOKEY\n"
                         "  request-xfr: 127.0.0.1@{3} NOKEY\n",
                         port, dir, kPoolZone, primary_port));
  return std::make_unique<ChildProcess>(std::vector<std::string>{"/usr/sbin/nsd", "-d", "-c", dir + "/nsd.conf"},
                                        dir + "/nsd.log");
}

std::unique_ptr<ChildProcess> start_knot(const std::string& dir, std::uint16_t port, std::uint16_t primary_port) {
  write_file(dir + "/knot.conf",
             fmt::format("server:\n  listen: 127.0.0.1@{0}\n  rundir: \"{1}\"\n  user: root:root\n"
                         "database:\n  storage: \"{1}\"\nlog:\n  - target: stderr\n    any: info\n"
                         "remote:\n  - id: primary\n    address: 127.0.0.1@{3}\n"
                         "acl:\n  - id: notify_from_primary\n    address: 127.0.0.1\n    action: notify\n"
                         "template:\n  - id: default\n    storage: \"{1}\"\n    zonefile-sync: -1\n"
                         "    journal-content: changes\n"
                         "zone:\n  - domain: {2}\n    master: primary\n    acl: notify_from_primary\n",
                         port, dir, kPoolZone, primary_port));
  return std::make_unique<ChildProcess>(std::vector<std::string>{"/usr/sbin/knotd", "-c", dir + "/knot.conf"},
                                        dir + "/knot.log");
}

std::vector<std::string> answer_at(std::uint16_t port, const std::string& name) {
  auto out = DigResult::rdatas(dig(port, name, "A", {"+tries=1", "+time=1"}).answer, "A");
  std::sort(out.begin(), out.end());
  return out;
}

std::string serial_at(std::uint16_t port) {
  auto soa = DigResult::rdatas(dig(port, kPoolZone, "SOA", {"+tries=1", "+time=1"}).answer, "SOA");
  if (soa.empty()) return "";
  std::istringstream fields(soa.front());
  std::string mname, rname, serial;
  fields >> mname >> rname >> serial;
  return serial;
}

// The time stamps ("2026-11-29T21:19:15.683Z") of the log lines at or after `from` that
// contain every one of `needles`.
std::vector<std::chrono::system_clock::time_point> log_times(const std::string& log,
                                                             std::chrono::system_clock::time_point from,
                                                             const std::vector<std::string>& needles) {
  std::vector<std::chrono::system_clock::time_point> out;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    bool all = std::all_of(needles.begin(), needles.end(),
                           [&](const std::string& needle) { return line.find(needle) != std::string::npos; });
    std::tm fields{};
    int millis = 0;
    if (!all || std::sscanf(line.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ", &fields.tm_year, &fields.tm_mon,
                            &fields.tm_mday, &fields.tm_hour, &fields.tm_min, &fields.tm_sec, &millis) != 7) {
      continue;
    }
    fields.tm_year -= 1900;
    fields.tm_mon -= 1;
    auto at = std::chrono::system_clock::from_time_t(::timegm(&fields)) + std::chrono::milliseconds(millis);
    // Millisecond stamps: a line of the same millisecond as `from` still counts.
    if (at + std::chrono::milliseconds(1) >= from) out.push_back(at);
  }
  return out;
}

std::optional<std::chrono::system_clock::time_point> log_time(const std::string& log,
                                                              std::chrono::system_clock::time_point from,
                                                              const std::vector<std::string>& needles) {
  auto all = log_times(log, from, needles);
  if (all.empty()) return std::nullopt;
  return all.front();
}

long long ms_between(std::chrono::system_clock::time_point from, std::optional<std::chrono::system_clock::time_point> to) {
  return to ? static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(*to - from).count()) : -1;
}

bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  while (Clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

// When (after `from`) the server at `port` first answers exactly `expected`; polled every
// 20 ms on its own thread so several servers are timed at once.
class AnswerWatch {
 public:
  AnswerWatch(std::uint16_t port, std::vector<std::string> expected, Clock::time_point from,
              std::chrono::milliseconds limit)
      : thread_([this, port, expected = std::move(expected), from, limit] {
          while (Clock::now() - from < limit) {
            if (answer_at(port, kPoolName) == expected) {
              seen_ = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - from);
              return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
          }
        }) {}
  std::optional<std::chrono::milliseconds> result() {
    thread_.join();
    return seen_;
  }

 private:
  std::optional<std::chrono::milliseconds> seen_;
  std::thread thread_;
};

CommandResult cutover_cli(std::vector<std::string> args, std::uint16_t control_port) {
  args.insert(args.begin(), CUTOVER_BINARY);
  args.push_back("--control");
  args.push_back(fmt::format("127.0.0.1:{}", control_port));
  return run_command(args, std::chrono::seconds(10));
}

TEST(Materialize, ASecondaryFollowsAKilledPrimaryEndpoint) {
  if (!executable("/usr/sbin/nsd")) GTEST_SKIP() << "nsd is not installed";
  HttpEndpoint primary(kPrimary);
  HttpEndpoint backup(kBackup);
  PoolDir dir;
  std::vector<Secondary> secondaries;
  secondaries.push_back({"nsd", free_port(), nullptr});
  if (executable("/usr/sbin/knotd")) secondaries.push_back({"knot", free_port(), nullptr});
  std::vector<std::uint16_t> ports;
  for (const auto& secondary : secondaries) ports.push_back(secondary.port);
  write_materialize_config(dir, primary, backup, ports);
  PoolServer cutover(dir, free_port());
  ASSERT_TRUE(cutover.wait_for_answer(kPoolName, {kPrimary})) << cutover.server().log();

  for (auto& secondary : secondaries) {
    std::string home = make_temp_dir("cutover-" + secondary.kind);
    secondary.process = secondary.kind == "nsd" ? start_nsd(home, secondary.port, cutover.dns_port())
                                                : start_knot(home, secondary.port, cutover.dns_port());
    ASSERT_TRUE(wait_until([&] { return answer_at(secondary.port, kPoolName) == std::vector<std::string>{kPrimary}; },
                           std::chrono::seconds(20)))
        << secondary.kind << " never served the pool's first answer:\n" << secondary.process->log();
  }
  std::string serial_before = serial_at(cutover.dns_port());

  auto killed_wall = std::chrono::system_clock::now();
  Clock::time_point killed = Clock::now();
  primary.stop();  // connections to the primary are refused from now on
  constexpr auto kLimit = std::chrono::seconds(30);
  AnswerWatch direct(cutover.dns_port(), {kBackup}, killed, kLimit);
  std::vector<std::unique_ptr<AnswerWatch>> watches;
  for (const auto& secondary : secondaries) {
    watches.push_back(std::make_unique<AnswerWatch>(secondary.port, std::vector<std::string>{kBackup}, killed, kLimit));
  }
  auto detection = direct.result();
  ASSERT_TRUE(detection.has_value()) << cutover.server().log();
  // A refused probe fails at once: D within [(F-1)·I, F·I + T] = [0.2, 0.55] s, plus
  // scheduling and the 20 ms poll on a loaded machine.
  EXPECT_LE(detection->count(), 550 + 1000);
  std::printf("materialize: D (kill -> cutover answers the backup) = %lld ms\n",
              static_cast<long long>(detection->count()));
  // The parts from cutover's own log (millisecond stamps): the verdict, the journaled write,
  // and each secondary's IXFR served; the secondary's apply and the poll make up the rest.
  const std::string log = cutover.server().log();
  auto verdict = log_time(log, killed_wall, {"health.transition", "to=down", kPrimary});
  auto applied = log_time(log, killed_wall, {"write.applied", "A 127.0.0.12"});
  std::printf("materialize: log: verdict %lld ms, write applied %lld ms after the kill\n", ms_between(killed_wall, verdict),
              ms_between(killed_wall, applied));
  for (std::size_t i = 0; i < secondaries.size(); ++i) {
    auto end_to_end = watches[i]->result();
    ASSERT_TRUE(end_to_end.has_value()) << secondaries[i].kind << " kept the dead endpoint:\n"
                                        << secondaries[i].process->log();
    // P: from the write applied (log) to the poller seeing the secondary answer the backup.
    std::printf("materialize: %s end to end (kill -> secondary answers the backup) = %lld ms, P <= %lld ms\n",
                secondaries[i].kind.c_str(), static_cast<long long>(end_to_end->count()),
                static_cast<long long>(end_to_end->count()) - ms_between(killed_wall, applied));
    EXPECT_EQ(serial_at(secondaries[i].port), serial_at(cutover.dns_port())) << secondaries[i].kind;
  }
  EXPECT_NE(serial_at(cutover.dns_port()), serial_before);
  if (applied) {
    for (auto served : log_times(cutover.server().log(), *applied, {"xfr.ixfr"})) {
      std::printf("materialize: log: IXFR served %lld ms after the kill\n", ms_between(killed_wall, served));
    }
  }
  CommandResult history = cutover_cli({"history", kPoolZone}, cutover.control_port());
  ASSERT_EQ(history.exit_code, 0) << history.err;
  EXPECT_NE(history.out.find("who=pool:web  what=health -> A 127.0.0.11 (healthy)"), std::string::npos) << history.out;
  EXPECT_NE(history.out.find("who=pool:web  what=health -> A 127.0.0.12 (healthy)"), std::string::npos) << history.out;
  EXPECT_NE(cutover.server().log().find("xfr.ixfr"), std::string::npos);
}

TEST(Materialize, OverridesAreJournaledAndSteadyHealthWritesNothing) {
  HttpEndpoint primary(kPrimary);
  HttpEndpoint backup(kBackup);
  PoolDir dir;
  write_materialize_config(dir, primary, backup, {free_port()});
  PoolServer cutover(dir);
  ASSERT_TRUE(cutover.wait_for_answer(kPoolName, {kPrimary})) << cutover.server().log();
  std::string serial = serial_at(cutover.dns_port());
  // Ten probe intervals of unchanged health: no write, no serial churn.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  EXPECT_EQ(serial_at(cutover.dns_port()), serial);

  ASSERT_EQ(cutover.post(fmt::format("/pools/web/endpoints/{}/drain", kPrimary)).status, 200);
  // The reply came after the journaled write: the very next query sees it.
  EXPECT_EQ(cutover.addresses(kPoolName), std::vector<std::string>{kBackup});
  ASSERT_EQ(cutover.post(fmt::format("/pools/web/endpoints/{}/undrain", kPrimary)).status, 200);
  EXPECT_EQ(cutover.addresses(kPoolName), std::vector<std::string>{kPrimary});

  CommandResult history = cutover_cli({"history", kPoolZone}, cutover.control_port());
  ASSERT_EQ(history.exit_code, 0) << history.err;
  EXPECT_NE(history.out.find("who=api@127.0.0.1 (pool:web)  what=drain 127.0.0.11 -> A 127.0.0.12 (healthy)"),
            std::string::npos)
      << history.out;
  EXPECT_NE(history.out.find("what=undrain 127.0.0.11 -> A 127.0.0.11 (healthy)"), std::string::npos) << history.out;
  // The engine answers from the zone records: what `get` shows is what dig gets.
  CommandResult records = cutover_cli({"get", kPoolZone, "web", "A"}, cutover.control_port());
  EXPECT_NE(records.out.find("127.0.0.11"), std::string::npos) << records.out << records.err;
}

TEST(Materialize, WithoutAJournalTheServerRefusesToStart) {
  HttpEndpoint primary(kPrimary);
  PoolDir dir;
  dir.write_config(fmt::format("  web:\n    name: {}\n    serve: materialize\n    endpoints:\n{}", kPoolName,
                               endpoint_yaml(primary)));
  ServerSpec spec;
  spec.config = dir.config_path;
  spec.port = free_port();
  auto server = CutoverServer::launch(spec);
  ASSERT_TRUE(server->wait_for_exit(std::chrono::seconds(10)).has_value());
  EXPECT_NE(server->log().find("cutover.yaml:8:12: pools.web.serve: materialize writes the pool's answer through the "
                               "write path, which needs a journal (writes.journal)"),
            std::string::npos)
      << server->log();
}

}  // namespace
}  // namespace cutover::testing
