// DNS over TCP under attack (issue 20): an attacker holds 1000 connections that each send
// one byte and stall, reconnecting whatever the server closes, while a legitimate client
// on another address asks 20 queries over TCP, each on a new connection. All 20 must be
// answered: the per-client cap, the eviction of stalled connections at the limit
// (RFC 7766 §6.2.3, §10) and the shortened idle timeout under pressure. Correctness only:
// every wait is a generous safety bound, never a measured time.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "serve/serve_fixture.h"
#include "support/server.h"
#include "support/stalled_flood.h"
#include "support/wire_client.h"

namespace cutover::testing {
namespace {

constexpr std::size_t kAttackConnections = 1000;
constexpr int kLegitimateQueries = 20;
constexpr auto kFloodStart = std::chrono::seconds(60);

// The flood's descriptors, the legitimate client's and the server's (a child inherits the
// limit, and raises its own soft limit to fit max-connections besides).
void make_room_for_the_flood() {
  ASSERT_TRUE(raise_descriptor_limit(kAttackConnections + 1024)) << "cannot raise RLIMIT_NOFILE";
}

// Asks www.serve.test A from 127.0.0.1 on `queries` new connections; returns how many got
// the right answer.
int legitimate_answers(const CutoverServer& server, int queries) {
  int answered = 0;
  for (int i = 0; i < queries; ++i) {
    TcpClient client(server.port(), "127.0.0.1");
    if (!client.connected()) continue;
    auto id = static_cast<std::uint16_t>(100 + i);
    if (!client.send_framed({make_query(id, "www.serve.test", dns::RRType::A)})) continue;
    auto response = client.receive();  // waits up to 10 s
    if (response && response->header.id == id && response->header.rcode == 0 && response->answers.size() == 1) {
      ++answered;
    }
  }
  return answered;
}

std::vector<std::string> addresses(int first_last_octet, int count) {
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back(fmt::format("127.0.0.{}", first_last_octet + i));
  return out;
}

// Issue 20's attack as it was tried: 1000 stalled connections from one address, the
// server's defaults. The per-client cap keeps the attacker to 64 of the 256 slots.
TEST(ServeTcpAbuse, AThousandStalledConnectionsFromOneAddressLeaveTcpAnswering) {
  make_room_for_the_flood();
  ZoneDir zone;
  CutoverServer server(zone_spec(zone));
  StalledFlood flood(server.port(), {"127.0.0.9"}, kAttackConnections);
  ASSERT_TRUE(flood.wait_until_all_sent(kFloodStart)) << "the flood did not start";
  // The attack is in force once the server has turned away every connection beyond the cap.
  ASSERT_TRUE(flood.wait_until_closed(kAttackConnections - 64, kFloodStart)) << "holding " << flood.holding();
  int answered = legitimate_answers(server, kLegitimateQueries);
  std::size_t closed = flood.closed_by_server();
  std::size_t holding = flood.holding();
  flood.stop();
  EXPECT_EQ(answered, kLegitimateQueries) << "server log:\n" << server.log();
  EXPECT_GT(holding, 0u);  // and the attacker kept its share meanwhile
  std::printf("one address: %d of %d answered; attacker holding %zu, %zu closed by the server\n", answered,
              kLegitimateQueries, holding, closed);
}

// The same flood spread over 20 addresses of 50 connections each, under the per-client cap:
// every slot fills, and only eviction makes room. The idle timeout is kept at 60 s even when
// full, so the stalled connections do not simply time out.
TEST(ServeTcpAbuse, AThousandStalledConnectionsFromManyAddressesAreEvictedForNewcomers) {
  make_room_for_the_flood();
  ZoneDir zone;
  zone.write_config("tcp: {idle-timeout: 60s, busy-idle-timeout: 60s}\n");
  CutoverServer server(config_spec(zone));
  StalledFlood flood(server.port(), addresses(10, 20), kAttackConnections);
  ASSERT_TRUE(flood.wait_until_all_sent(kFloodStart)) << "the flood did not start";
  // 1000 connections against 256 slots, none timed out: the server has taken the flood in
  // once it has evicted 744 of them, and every slot is then held by the attacker.
  ASSERT_TRUE(flood.wait_until_closed(kAttackConnections - 256, kFloodStart)) << "holding " << flood.holding();
  int answered = legitimate_answers(server, kLegitimateQueries);
  std::size_t closed = flood.closed_by_server();
  std::size_t holding = flood.holding();
  flood.stop();
  EXPECT_EQ(answered, kLegitimateQueries) << "server log:\n" << server.log();
  std::printf("20 addresses: %d of %d answered; attacker holding %zu, %zu closed by the server\n", answered,
              kLegitimateQueries, holding, closed);
}

TEST(ServeTcpAbuse, ConnectionsBeyondAClientsCapAreClosedAndOthersAreServed) {
  ZoneDir zone;
  zone.write_config("tcp: {max-connections-per-client: 4}\n");
  CutoverServer server(config_spec(zone));
  auto query = make_query(1, "www.serve.test", dns::RRType::A);
  std::vector<std::unique_ptr<TcpClient>> held;
  for (int i = 0; i < 4; ++i) {
    held.push_back(std::make_unique<TcpClient>(server.port(), "127.0.0.9"));
    ASSERT_TRUE(held.back()->send_framed({query}));
    ASSERT_TRUE(held.back()->receive().has_value()) << "connection " << i << " within the cap";
  }
  TcpClient fifth(server.port(), "127.0.0.9");
  fifth.send_framed({query});
  EXPECT_TRUE(fifth.closed_by_peer());
  TcpClient other(server.port(), "127.0.0.1");
  ASSERT_TRUE(other.send_framed({query}));
  EXPECT_TRUE(other.receive().has_value());
  // The four within the cap are still served.
  ASSERT_TRUE(held.front()->send_framed({query}));
  EXPECT_TRUE(held.front()->receive().has_value());
}

// With every slot taken the idle timeout falls from 30 s to 300 ms. Eight stalled
// connections (a flood from eight addresses) fill the eight slots, and the flood reopens each
// one the server closes within about 10 ms, so the slots stay full and nothing is evicted:
// every close is the idle timeout's. Each slot turning over twice takes about a second with
// the shortened timeout; the 20 s bound is a safety margin that still lies below the
// configured 30 s, before which the unshortened timeout would close nothing. Which stalled
// connection goes first is the server's order (the stalest read), not the order they were
// opened in. Real time, proving the fake-clock test of the curve (tcp_eviction_test.cpp).
TEST(ServeTcpAbuse, TheIdleTimeoutShortensWhileTheSlotsAreFull) {
  constexpr std::size_t kSlots = 8;
  ZoneDir zone;
  zone.write_config(fmt::format("tcp: {{idle-timeout: 30s, busy-idle-timeout: 300ms, max-connections: {}}}\n", kSlots));
  CutoverServer server(config_spec(zone));
  {
    StalledFlood flood(server.port(), addresses(20, static_cast<int>(kSlots)), kSlots);
    ASSERT_TRUE(flood.wait_until_all_sent(kFloodStart)) << "the flood did not start";
    EXPECT_TRUE(flood.wait_until_closed(2 * kSlots, std::chrono::seconds(20)))
        << flood.closed_by_server() << " closed by the server\n" << server.log();
  }
  // With the load gone the configured timeout applies again: a stalled connection holding
  // one of the eight slots outlives closed_by_peer's 10 s.
  TcpClient lone(server.port(), "127.0.0.60");
  ASSERT_TRUE(lone.send_raw({0}));
  EXPECT_FALSE(lone.closed_by_peer());
}

}  // namespace
}  // namespace cutover::testing
