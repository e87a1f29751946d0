// DNS over TCP behaviour of `cutover serve` (RFC 7766) seen by a raw client: pipelined
// queries on one connection, a stalled half message dropped after the idle timeout, and
// the connection limit (tcp_abuse_test.cpp has the limits under attack).
#include <gtest/gtest.h>

#include "serve/serve_fixture.h"
#include "support/server.h"
#include "support/wire_client.h"

namespace cutover::testing {
namespace {

TEST(ServeTcp, AnswersPipelinedQueriesOnOneConnection) {
  ZoneDir zone;
  CutoverServer server(zone_spec(zone));
  TcpClient client(server.port());
  ASSERT_TRUE(client.connected());
  std::vector<std::vector<std::uint8_t>> queries;
  for (std::uint16_t id = 1; id <= 5; ++id) {
    queries.push_back(make_query(id, id % 2 == 0 ? "www.serve.test" : "missing.serve.test", dns::RRType::A));
  }
  ASSERT_TRUE(client.send_framed(queries));  // all five in one write
  for (std::uint16_t id = 1; id <= 5; ++id) {
    auto response = client.receive();
    ASSERT_TRUE(response.has_value()) << "response " << id << " missing; log:\n" << server.log();
    EXPECT_EQ(response->header.id, id);
    EXPECT_TRUE(response->header.qr);
    if (id % 2 == 0) {
      EXPECT_EQ(response->header.rcode, 0);
      EXPECT_EQ(response->answers.size(), 1u);
    } else {
      EXPECT_EQ(response->header.rcode, 3);  // NXDOMAIN
    }
  }
}

TEST(ServeTcp, DropsAClientThatStallsInsideAMessage) {
  ZoneDir zone;
  zone.write_config("tcp: {idle-timeout: 300ms}\n");
  CutoverServer server(config_spec(zone));
  TcpClient client(server.port());
  ASSERT_TRUE(client.connected());
  auto query = make_query(7, "www.serve.test", dns::RRType::A);
  // The length prefix and half of the message, then nothing.
  std::vector<std::uint8_t> half = {static_cast<std::uint8_t>(query.size() >> 8),
                                    static_cast<std::uint8_t>(query.size() & 0xff)};
  half.insert(half.end(), query.begin(), query.begin() + static_cast<std::ptrdiff_t>(query.size() / 2));
  ASSERT_TRUE(client.send_raw(half));
  EXPECT_TRUE(client.closed_by_peer());
  // The server itself is fine afterwards.
  TcpClient next(server.port());
  ASSERT_TRUE(next.send_framed({query}));
  EXPECT_TRUE(next.receive().has_value());
}

TEST(ServeTcp, AtTheLimitANewcomerClosesTheOldestIdleConnection) {
  ZoneDir zone;
  zone.write_config("threads: 1\ntcp: {max-connections: 2}\n");
  CutoverServer server(config_spec(zone));
  auto query = make_query(1, "www.serve.test", dns::RRType::A);
  TcpClient first(server.port());
  TcpClient second(server.port());
  for (TcpClient* client : {&first, &second}) {
    ASSERT_TRUE(client->send_framed({query}));
    ASSERT_TRUE(client->receive().has_value());  // both accepted, counted, now idle
  }
  TcpClient third(server.port());
  ASSERT_TRUE(third.send_framed({query}));
  EXPECT_TRUE(third.receive().has_value()) << server.log();
  EXPECT_TRUE(first.closed_by_peer());
  ASSERT_TRUE(second.send_framed({query}));
  EXPECT_TRUE(second.receive().has_value());
}

}  // namespace
}  // namespace cutover::testing
