// Issue 15, scenarios 4 to 7 (docs/cluster.md, "Shared pool state"): three real etcd
// members and three `cutover serve` instances on loopback, each with a `cluster:` section,
// so their pools' writes go to etcd and every server watches them. Asserted with real dig
// against every server and the control API over HTTP:
//   4. a drain written on server A is answered by B and C (the time is printed);
//   5. two writers on two servers with the same expected_version: exactly one wins, the
//      other gets 409 with the current version;
//   6. kill -9 of the etcd leader during a burst of pool writes: every acknowledged write
//      is on every server afterwards, and writes resume after the election;
//   7. all of etcd stopped for 30 s: no server answers empty meanwhile, pool writes are
//      refused naming etcd, and after the restart a write on one server reaches the others.
// Needs `etcd`, `dig` and `curl`; skips otherwise. Loopback only; every wait is bounded.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include "cluster/etcd_test_support.h"
#include "pools/pool_fixture.h"
#include "support/dig.h"
#include "support/process.h"
#include "support/server.h"

namespace cutover::testing {
namespace {

constexpr int kEtcdBasePort = 0;  // ports the kernel picks: ctest runs these tests side by side
constexpr const char* kFirst = "127.0.0.71";
constexpr const char* kSecond = "127.0.0.72";
using Clock = std::chrono::steady_clock;

struct Http {
  int status = 0;
  nlohmann::json body;
};

// One control API call through curl: the status and the JSON body.
Http call(std::uint16_t port, const std::string& method, const std::string& path, const std::string& body = {}) {
  std::vector<std::string> argv{"curl", "-s", "--max-time", "10", "-X", method, "-w", "\n%{http_code}",
                                fmt::format("http://127.0.0.1:{}{}", port, path)};
  if (!body.empty()) {
    argv.insert(argv.end(), {"-H", "Content-Type: application/json", "--data-binary", body});
  }
  auto result = run_command(argv, std::chrono::seconds(15));
  Http out;
  auto newline = result.out.rfind('\n');
  if (newline == std::string::npos) return out;
  out.status = std::atoi(result.out.c_str() + newline + 1);
  out.body = nlohmann::json::parse(result.out.substr(0, newline), nullptr, false);
  return out;
}

std::vector<std::string> answer(std::uint16_t port, const std::string& name) {
  DigResult result = dig(port, name, "A");
  auto out = DigResult::rdatas(result.answer, "A");
  std::sort(out.begin(), out.end());
  return out;
}

std::uint64_t version_of(std::uint16_t control, const std::string& pool) {
  Http got = call(control, "GET", "/pools/" + pool);
  if (got.status != 200 || !got.body.is_object()) return 0;
  return got.body.value("version", std::uint64_t{0});
}

std::string pool_settings(const std::string& name, const HttpEndpoint& first, const HttpEndpoint& second) {
  nlohmann::json check = {{"type", "http"}, {"path", "/health"}, {"interval", "500ms"}, {"timeout", "300ms"},
                          {"fall", 2},      {"rise", 1}};
  return nlohmann::json{
      {"pool",
       {{"name", name},
        {"ttl", 5},
        {"check", check},
        {"endpoints", nlohmann::json::array({{{"address", first.address()}, {"port", first.port()}, {"priority", 1}},
                                             {{"address", second.address()}, {"port", second.port()},
                                              {"priority", 2}}})}}}}
      .dump();
}

class SharedState : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* program : {"etcd", "dig", "curl"}) {
      if (!have_program(program)) GTEST_SKIP() << program << " is not installed";
    }
    first_ = std::make_unique<HttpEndpoint>(kFirst);
    second_ = std::make_unique<HttpEndpoint>(kSecond);
    etcd_ = std::make_unique<cluster::testing::EtcdCluster>(3, kEtcdBasePort);
    ASSERT_TRUE(etcd_->wait_healthy()) << "etcd did not become healthy; logs in " << etcd_->dir();
    dir_ = make_temp_dir("cutover-shared-state");
    write_file(dir_ + "/example.test.zone",
               "$ORIGIN example.test.\n$TTL 60\n"
               "@ IN SOA ns1 hostmaster 1 3600 600 86400 60\n@ IN NS ns1\nns1 IN A 127.0.0.1\n");
    for (int i = 0; i < 3; ++i) {
      const std::string config = fmt::format("{}/dns{}.yaml", dir_, i + 1);
      write_file(config,
                 fmt::format("control: {{listen: \"127.0.0.1:0\"}}\n"
                             "cluster:\n  etcd: [{}]\n  vantage: dns{}\n"
                             "zones:\n  - {{origin: example.test., file: example.test.zone}}\n"
                             "pools:\n"
                             "  web:\n    name: web.example.test\n    shape: failover\n    ttl: 5\n"
                             "    check: {{type: http, path: /health, interval: 500ms, timeout: 300ms, fall: 2, "
                             "rise: 1}}\n"
                             "    endpoints:\n"
                             "      - {{address: {}, port: {}, priority: 1}}\n"
                             "      - {{address: {}, port: {}, priority: 2}}\n",
                             etcd_->urls(), i + 1, kFirst, first_->port(), kSecond, second_->port()));
      servers_.push_back(
          std::make_unique<CutoverServer>(ServerSpec{.zones = {}, .config = config, .probe_name = "example.test."}));
    }
    for (auto& server : servers_) {
      ASSERT_TRUE(eventually([&] { return server->control_port() != 0; })) << server->log();
      ASSERT_TRUE(eventually([&] { return answer(server->port(), "web.example.test") == only_first_; },
                             std::chrono::seconds(20)))
          << server->log();
    }
  }

  std::uint16_t control(int i) const { return servers_[i]->control_port(); }
  std::uint16_t dns(int i) const { return servers_[i]->port(); }
  std::string logs() const {
    std::string out;
    for (const auto& server : servers_) out += server->log() + "\n----\n";
    return out;
  }

  std::unique_ptr<HttpEndpoint> first_;
  std::unique_ptr<HttpEndpoint> second_;
  std::unique_ptr<cluster::testing::EtcdCluster> etcd_;
  std::string dir_;
  std::vector<std::unique_ptr<CutoverServer>> servers_;
  const std::vector<std::string> only_first_{kFirst};
  const std::vector<std::string> only_second_{kSecond};
};

// With local-checker true (the default) each server's own probes are published under its
// vantage name, and every server counts the others' as vantages (not its own twice).
TEST_F(SharedState, EachServersOwnProbesAreVantagesOfTheOthers) {
  for (int i = 0; i < 3; ++i) {
    Http status;
    ASSERT_TRUE(eventually(
        [&] {
          status = call(control(i), "GET", "/status");
          // The pools' vantages: the cluster section names this server's own vantage too.
          nlohmann::json pools = status.body;
          if (pools.is_object()) pools.erase("cluster");
          std::string text = pools.dump();
          for (int other = 0; other < 3; ++other) {
            bool listed = text.find(fmt::format("\"dns{}\"", other + 1)) != std::string::npos;
            if (listed != (other != i)) return false;
          }
          return text.find("\"local\"") != std::string::npos;
        },
        std::chrono::seconds(15)))
        << "server " << i << ": " << status.body.dump();
  }
  // The cluster section is read at start: a reload that changes it says a restart is needed
  // and keeps serving with the section it has.
  const std::string config = dir_ + "/dns1.yaml";
  std::string text = read_file(config);
  auto at = text.find("  vantage: dns1\n");
  ASSERT_NE(at, std::string::npos) << text;
  text.insert(at, "  suspect-after: 5s\n");
  write_file(config, text);
  servers_[0]->reload();
  EXPECT_TRUE(servers_[0]->wait_for_log("reload.restart_needed", 1, std::chrono::seconds(10))) << servers_[0]->log();
  EXPECT_TRUE(servers_[0]->wait_for_log("reload.ok", 1, std::chrono::seconds(10))) << servers_[0]->log();
  EXPECT_EQ(call(control(0), "GET", "/status").body["cluster"]["suspect_after_ms"], 60000);
  EXPECT_EQ(answer(dns(0), "web.example.test"), only_first_);
}

// Scenario 4: a drain written on A is answered by B and C; and history and undo from C.
TEST_F(SharedState, ADrainWrittenOnOneServerIsAnsweredByTheOthers) {
  std::vector<double> ms_b;
  std::vector<double> ms_c;
  for (int round = 0; round < 3; ++round) {
    auto start = Clock::now();
    Http drained = call(control(0), "POST", fmt::format("/pools/web/endpoints/{}/drain", kFirst), "{}");
    ASSERT_EQ(drained.status, 200) << drained.body.dump() << logs();
    EXPECT_EQ(answer(dns(0), "web.example.test"), only_second_);  // A: applied before its reply
    double at_b = 0;
    double at_c = 0;
    ASSERT_TRUE(eventually(
        [&] {
          auto now = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
          if (at_b == 0 && answer(dns(1), "web.example.test") == only_second_) at_b = now;
          if (at_c == 0 && answer(dns(2), "web.example.test") == only_second_) at_c = now;
          return at_b > 0 && at_c > 0;
        },
        std::chrono::seconds(10)))
        << logs();
    ms_b.push_back(at_b);
    ms_c.push_back(at_c);
    Http undrained = call(control(1), "POST", fmt::format("/pools/web/endpoints/{}/undrain", kFirst), "{}");
    ASSERT_EQ(undrained.status, 200) << undrained.body.dump();
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(eventually([&] { return answer(dns(i), "web.example.test") == only_first_; })) << logs();
    }
  }
  std::printf("drain on A answered by B after %s ms, by C after %s ms (request sent to answer seen, dig polling)\n",
              fmt::format("{:.0f}", fmt::join(ms_b, ", ")).c_str(), fmt::format("{:.0f}", fmt::join(ms_c, ", ")).c_str());
  std::fflush(stdout);
  // Every server reads the same history, and undo works from any of them.
  Http history = call(control(2), "GET", "/pools/web/history");
  ASSERT_EQ(history.status, 200) << history.body.dump();
  const auto& entries = history.body.is_object() ? history.body.value("entries", nlohmann::json::array())
                                                 : history.body;
  EXPECT_EQ(entries.size(), 6u) << history.body.dump();
  Http undone = call(control(2), "POST", "/pools/web/undo", R"({"to": 5})");
  ASSERT_EQ(undone.status, 200) << undone.body.dump();
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(eventually([&] { return answer(dns(i), "web.example.test") == only_second_; })) << logs();
    EXPECT_TRUE(eventually([&] { return version_of(control(i), "web") == 7; })) << "server " << i;
  }
}

// Scenario 5: two writers on two servers race with the same expected_version.
TEST_F(SharedState, TwoWritersWithTheSameExpectedVersionOnlyOneWins) {
  for (int round = 0; round < 5; ++round) {
    std::uint64_t version = version_of(control(0), "web");
    ASSERT_TRUE(eventually([&] { return version_of(control(1), "web") == version; })) << logs();
    const char* address = round % 2 == 0 ? kFirst : kSecond;
    const std::string fence = fmt::format(R"({{"expected_version": {}}})", version);
    Http results[2];
    std::thread a([&] { results[0] = call(control(0), "POST", fmt::format("/pools/web/endpoints/{}/drain", address), fence); });
    std::thread b([&] {
      results[1] = call(control(1), "POST", fmt::format("/pools/web/endpoints/{}/force-up", address), fence);
    });
    a.join();
    b.join();
    int won = (results[0].status == 200) + (results[1].status == 200);
    int lost = (results[0].status == 409) + (results[1].status == 409);
    ASSERT_EQ(won, 1) << results[0].body.dump() << "\n" << results[1].body.dump();
    ASSERT_EQ(lost, 1) << results[0].body.dump() << "\n" << results[1].body.dump();
    const Http& loser = results[0].status == 409 ? results[0] : results[1];
    EXPECT_EQ(loser.body.value("version", std::uint64_t{0}), version + 1) << loser.body.dump();
    EXPECT_NE(loser.body.dump().find(fmt::format("current version is {}", version + 1)), std::string::npos)
        << loser.body.dump();
    // Clear the override for the next round, on the third server.
    ASSERT_TRUE(eventually([&] { return version_of(control(2), "web") == version + 1; })) << logs();
    Http cleared = call(control(2), "POST", fmt::format("/pools/web/endpoints/{}/undrain", address),
                        fmt::format(R"({{"expected_version": {}}})", version + 1));
    ASSERT_EQ(cleared.status, 200) << cleared.body.dump();
  }
}

// Scenario 6: kill -9 of the etcd leader in the middle of a burst of pool writes.
TEST_F(SharedState, KillingTheEtcdLeaderLosesNoAcknowledgedWrite) {
  int leader = etcd_->leader();
  ASSERT_GE(leader, 0) << "no etcd leader found";
  std::vector<int> acknowledged;
  std::vector<int> refused;
  int acknowledged_after_kill = 0;
  bool killed = false;
  auto deadline = Clock::now() + std::chrono::seconds(60);
  for (int i = 0; i < 40 && Clock::now() < deadline; ++i) {
    if (i == 10) {
      etcd_->kill_hard(leader);
      killed = true;
    }
    Http put = call(control(i % 3), "PUT", fmt::format("/pools/b{}", i),
                    pool_settings(fmt::format("b{}.example.test", i), *first_, *second_));
    if (put.status == 200) {
      acknowledged.push_back(i);
      if (killed) ++acknowledged_after_kill;
    } else {
      refused.push_back(i);
      // A refusal names etcd (or is a conflict after a lost reply); never a crash.
      EXPECT_TRUE(put.status == 500 || put.status == 409) << put.status << " " << put.body.dump();
    }
  }
  std::printf("burst: %zu writes acknowledged (%d after the leader, member %d, was killed), %zu refused\n",
              acknowledged.size(), acknowledged_after_kill, leader, refused.size());
  std::fflush(stdout);
  EXPECT_GT(acknowledged_after_kill, 0) << "writes did not resume after the election\n" << logs();
  // The watches reconnected to the remaining members: a drain on C is answered by A and B.
  Http drained = call(control(2), "POST", fmt::format("/pools/web/endpoints/{}/drain", kFirst), "{}");
  ASSERT_EQ(drained.status, 200) << drained.body.dump();
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(eventually([&] { return answer(dns(i), "web.example.test") == only_second_; })) << "server " << i;
  }
  etcd_->start(leader);
  ASSERT_TRUE(etcd_->wait_healthy()) << "etcd did not recover";
  for (int server = 0; server < 3; ++server) {
    for (int i : acknowledged) {
      const std::string name = fmt::format("b{}.example.test", i);
      EXPECT_TRUE(eventually([&] { return version_of(control(server), fmt::format("b{}", i)) >= 1; },
                             std::chrono::seconds(20)))
          << "server " << server << " lacks acknowledged pool b" << i << "\n" << logs();
      EXPECT_EQ(answer(dns(server), name), only_first_) << "server " << server << " " << name;
    }
  }
}

// Losing one etcd member that is not the leader changes nothing a client sees: writes on
// every server are acknowledged and answered by all.
TEST_F(SharedState, LosingOneEtcdFollowerChangesNothing) {
  int leader = etcd_->leader();
  ASSERT_GE(leader, 0);
  int follower = (leader + 1) % 3;
  etcd_->stop(follower);
  for (int writer = 0; writer < 3; ++writer) {
    const char* verb = writer % 2 == 0 ? "drain" : "undrain";
    Http write = call(control(writer), "POST", fmt::format("/pools/web/endpoints/{}/{}", kFirst, verb), "{}");
    ASSERT_EQ(write.status, 200) << "writer " << writer << ": " << write.body.dump();
    const auto& expect = writer % 2 == 0 ? only_second_ : only_first_;
    for (int i = 0; i < 3; ++i) {
      EXPECT_TRUE(eventually([&] { return answer(dns(i), "web.example.test") == expect; })) << "server " << i;
    }
  }
  etcd_->start(follower);
  EXPECT_TRUE(etcd_->wait_healthy());
}

// Scenario 7: all of etcd stopped for 30 s and restarted.
TEST_F(SharedState, AllOfEtcdDownForThirtySecondsEmptiesNoAnswer) {
  Http drained = call(control(0), "POST", fmt::format("/pools/web/endpoints/{}/drain", kFirst), "{}");
  ASSERT_EQ(drained.status, 200) << drained.body.dump();
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(eventually([&] { return answer(dns(i), "web.example.test") == only_second_; })) << logs();
  }
  for (int member = 0; member < 3; ++member) etcd_->stop(member);
  auto down_until = Clock::now() + std::chrono::seconds(30);
  int queries = 0;
  int rounds = 0;
  bool refused_naming_etcd = false;
  while (Clock::now() < down_until && rounds < 200) {
    ++rounds;
    for (int i = 0; i < 3; ++i) {
      ++queries;
      ASSERT_EQ(answer(dns(i), "web.example.test"), only_second_) << "server " << i << " after " << queries;
    }
    if (!refused_naming_etcd) {
      Http write = call(control(1), "POST", fmt::format("/pools/web/endpoints/{}/undrain", kFirst), "{}");
      EXPECT_EQ(write.status, 500) << write.body.dump();
      refused_naming_etcd = write.body.dump().find("etcd") != std::string::npos;
      EXPECT_TRUE(refused_naming_etcd) << write.body.dump();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  std::printf("etcd down 30 s: %d queries to three servers, none empty\n", queries);
  std::fflush(stdout);
  for (int member = 0; member < 3; ++member) etcd_->start(member);
  ASSERT_TRUE(etcd_->wait_healthy()) << "etcd did not come back; logs in " << etcd_->dir();
  // Converges: a write on B after the restart is answered by A and C.
  Http undrained;
  ASSERT_TRUE(eventually(
      [&] {
        undrained = call(control(1), "POST", fmt::format("/pools/web/endpoints/{}/undrain", kFirst), "{}");
        return undrained.status == 200;
      },
      std::chrono::seconds(30)))
      << undrained.body.dump() << logs();
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(eventually([&] { return answer(dns(i), "web.example.test") == only_first_; },
                           std::chrono::seconds(15)))
        << "server " << i << "\n" << logs();
  }
}

}  // namespace
}  // namespace cutover::testing
