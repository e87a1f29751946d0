// CheckerAgent with real probes against a real TCP listener on loopback and a real etcd
// member (skipped when etcd is not installed): the verdict appears under its key with a
// lease, follows the endpoint down, is published again after etcd was stopped and
// restarted, and disappears with its lease once the agent stops. Every wait is bounded.
#include "cluster/checker_agent.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <thread>

#include "cluster/etcd_test_support.h"
#include "pool/config/pool_config.h"

namespace cutover::cluster {
namespace {

constexpr int kEtcdPort = 27481;      // client 27481, peer 27482
constexpr int kEndpointPort = 27490;  // the probed TCP listener on 127.0.0.1

const bool kSectionRegistered = (pool::register_config_section(), true);

// A listening TCP socket: the tcp probe's connect succeeds while it is open.
class Listener {
 public:
  explicit Listener(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ok_ = ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 && ::listen(fd_, 64) == 0;
  }
  ~Listener() { ::close(fd_); }
  bool ok() const { return ok_; }

 private:
  int fd_ = -1;
  bool ok_ = false;
};

std::optional<PublishedVerdict> read_verdict(EtcdClient& client, const std::string& key, std::int64_t* lease = nullptr) {
  auto range = client.range_prefix(key);
  if (!range) return std::nullopt;
  for (const auto& kv : range->kvs) {
    if (kv.key != key) continue;
    auto verdict = parse_verdict("/cutover/", kv.key, kv.value);
    if (!verdict) return std::nullopt;
    if (lease != nullptr) *lease = kv.lease;
    return *verdict;
  }
  return std::nullopt;
}

// Polls until the key says `state` (or is gone, with nullopt), at most `limit`.
bool wait_for(EtcdClient& client, const std::string& key, std::optional<health::HealthState> state,
              std::chrono::seconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    auto verdict = read_verdict(client, key);
    if (!state && !verdict && client.range_prefix(key)) return true;
    if (state && verdict && verdict->state == *state) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST(CheckerAgent, PublishesVerdictsUnderALeaseAndSurvivesAnEtcdRestart) {
  if (!testing::have_etcd()) GTEST_SKIP() << "etcd is not installed (Debian package etcd-server)";
  testing::EtcdCluster etcd(1, kEtcdPort);
  ASSERT_TRUE(etcd.wait_healthy()) << "etcd did not become healthy; log in " << etcd.dir();
  auto listener = std::make_unique<Listener>(kEndpointPort);
  ASSERT_TRUE(listener->ok());

  config::Config config = config::parse_config(
      "zones:\n  - {origin: example.test., file: z.db}\n"
      "pools:\n"
      "  web:\n"
      "    name: web.example.test\n"
      "    check: {type: tcp, interval: 1s, timeout: 500ms, fall: 1, rise: 1}\n"
      "    endpoints:\n"
      "      - {address: 127.0.0.1, port: " + std::to_string(kEndpointPort) + "}\n",
      "checker.yaml", "/d");
  auto members = parse_etcd_urls(etcd.urls());
  ASSERT_TRUE(members);
  base::Logger logger;
  CheckerAgent agent(config, CheckerOptions{*members, "fra", "/cutover/"}, logger);
  EXPECT_EQ(agent.lease_ttl(), std::chrono::seconds(3));
  ASSERT_TRUE(agent.start());

  EtcdClient reader(*members, std::chrono::milliseconds(2000));
  const std::string key = "/cutover/verdicts/web/127.0.0.1/fra";
  ASSERT_TRUE(wait_for(reader, key, health::HealthState::kUp, std::chrono::seconds(20)));
  std::int64_t lease = 0;
  auto up = read_verdict(reader, key, &lease);
  ASSERT_TRUE(up);
  EXPECT_NE(lease, 0);  // written under the agent's lease
  EXPECT_EQ(up->vantage, "fra");
  EXPECT_EQ(up->interval_ms, 1000);
  EXPECT_EQ(up->reason.rfind("pass", 0), 0u) << up->reason;
  ASSERT_EQ(up->checks.size(), 1u);
  EXPECT_GE(up->checks[0].passes, 1);
  EXPECT_EQ(up->probe_time.size(), 24u) << up->probe_time;

  // Its /status document (`cutover checker --control`): the vantage, the lease, etcd reached
  // and the verdict as published.
  auto status = agent.status_json();
  EXPECT_EQ(status["role"], "checker");
  const auto& section = status["cluster"];
  EXPECT_EQ(section["vantage"], "fra");
  EXPECT_EQ(section["lease_ttl_s"], 3);
  EXPECT_TRUE(section["lease"].is_string()) << section.dump();
  EXPECT_EQ(section["etcd"]["reached"], true) << section.dump();
  EXPECT_TRUE(section["etcd"]["last_reached"].is_string()) << section.dump();
  ASSERT_EQ(section["etcd"]["members"].size(), 1u);
  EXPECT_EQ(section["etcd"]["members"][0]["leader"], true) << section.dump();
  ASSERT_EQ(section["verdicts"].size(), 1u) << section.dump();
  EXPECT_EQ(section["verdicts"][0]["pool"], "web");
  EXPECT_EQ(section["verdicts"][0]["state"], "up");
  EXPECT_GE(section["published"].get<int>(), 1);

  listener.reset();  // connection refused from now on
  ASSERT_TRUE(wait_for(reader, key, health::HealthState::kDown, std::chrono::seconds(20)));
  auto down = read_verdict(reader, key);
  ASSERT_TRUE(down);
  EXPECT_EQ(down->reason.rfind("fail", 0), 0u) << down->reason;
  EXPECT_GE(down->checks[0].failures, 1);

  // etcd away for longer than the lease: the agent keeps probing, then publishes again.
  etcd.stop(0);
  listener = std::make_unique<Listener>(kEndpointPort);
  ASSERT_TRUE(listener->ok());
  std::this_thread::sleep_for(std::chrono::seconds(4));
  {
    auto away = agent.status_json()["cluster"];
    EXPECT_EQ(away["etcd"]["reached"], false) << away.dump();
    EXPECT_FALSE(away["etcd"]["last_error"].get<std::string>().empty()) << away.dump();
    EXPECT_EQ(away["etcd"]["members"][0]["reached"], false) << away.dump();
  }
  etcd.start(0);
  ASSERT_TRUE(etcd.wait_healthy());
  ASSERT_TRUE(wait_for(reader, key, health::HealthState::kUp, std::chrono::seconds(30)));

  // Stopped: nothing renews the lease, so etcd deletes the verdict (TTL 3 s; bound 20 s).
  agent.stop();
  EXPECT_TRUE(wait_for(reader, key, std::nullopt, std::chrono::seconds(20)));
}

}  // namespace
}  // namespace cutover::cluster
