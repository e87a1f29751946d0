// RFC 8305 ordering (§4) and the attempt loop (§5) on real loopback sockets: a refused
// address is passed over for the next, IPv6 is tried first, all refused is a failure. Only
// orders and outcomes are checked here; the 250 ms delay is measured by the integration
// test (tests/integration/client/).
#include <netinet/in.h>
#include <sys/socket.h>

#include <gtest/gtest.h>

#include "client/happy_eyeballs.h"

namespace cutover::client {
namespace {

net::SocketAddress address(const std::string& text) { return *net::parse_socket_address(text); }

// A listening TCP socket on `host` (port chosen by the kernel).
struct Listener {
  net::UniqueFd socket;
  std::uint16_t port = 0;
};
Listener listen_on(const std::string& host) {
  net::SocketOptions options;
  options.reuse_port = false;
  auto bound = net::open_listening_socket(address(host + ":0"), net::SocketKind::kTcp, options);
  EXPECT_TRUE(bound) << bound.error().message;
  Listener listener;
  listener.port = net::local_address(bound->get())->port();
  listener.socket = std::move(*bound);
  return listener;
}

std::vector<std::string> texts(const std::vector<net::SocketAddress>& addresses) {
  std::vector<std::string> out;
  for (const auto& a : addresses) out.push_back(net::format_address(a.storage));
  return out;
}

TEST(HappyEyeballs, InterleavesFamiliesIpv6First) {
  auto v6a = address("[2001:db8::1]:80");
  auto v6b = address("[2001:db8::2]:80");
  auto v4a = address("192.0.2.1:80");
  auto v4b = address("192.0.2.2:80");
  auto v4c = address("192.0.2.3:80");
  EXPECT_EQ(texts(interleave_families({v6a, v6b}, {v4a, v4b, v4c})),
            (std::vector<std::string>{"[2001:db8::1]:80", "192.0.2.1:80", "[2001:db8::2]:80", "192.0.2.2:80",
                                      "192.0.2.3:80"}));
  EXPECT_EQ(texts(interleave_families({}, {v4a, v4b})), (std::vector<std::string>{"192.0.2.1:80", "192.0.2.2:80"}));
  EXPECT_EQ(texts(interleave_families({v6a}, {})), (std::vector<std::string>{"[2001:db8::1]:80"}));
}

TEST(HappyEyeballs, PassesARefusedAddressForTheNext) {
  Listener live = listen_on("127.0.0.3");
  // Nothing listens on 127.0.0.2 at the live port: that address refuses.
  auto dead = address("127.0.0.2:" + std::to_string(live.port));
  auto alive = address("127.0.0.3:" + std::to_string(live.port));
  std::vector<std::string> events;
  ConnectResult result = connect_happy_eyeballs({dead, alive}, {}, [&](const ConnectAttempt& attempt, bool started) {
    events.push_back((started ? "start " : attempt_outcome_text(attempt.outcome) + " ") +
                     net::format_address(attempt.address.storage));
  });
  ASSERT_TRUE(result.connected());
  EXPECT_EQ(net::format_address(result.peer.storage), net::format_address(alive.storage));
  ASSERT_EQ(result.attempts.size(), 2u);
  EXPECT_EQ(result.attempts[0].outcome, AttemptOutcome::kRefused);
  EXPECT_EQ(result.attempts[1].outcome, AttemptOutcome::kConnected);
  EXPECT_GE(result.attempts[1].started, result.attempts[0].ended) << "the refusal came first, then the next started";
  std::string port = std::to_string(live.port);
  EXPECT_EQ(events, (std::vector<std::string>{"start 127.0.0.2:" + port, "refused 127.0.0.2:" + port,
                                              "start 127.0.0.3:" + port, "connected 127.0.0.3:" + port}));
}

TEST(HappyEyeballs, TriesIpv6FirstThenIpv4) {
  Listener live = listen_on("127.0.0.1");  // IPv4 only: [::1] refuses
  auto v6 = address("[::1]:" + std::to_string(live.port));
  auto v4 = address("127.0.0.1:" + std::to_string(live.port));
  ConnectResult result = connect_happy_eyeballs(interleave_families({v6}, {v4}), {});
  ASSERT_TRUE(result.connected());
  ASSERT_EQ(result.attempts.size(), 2u);
  EXPECT_EQ(result.attempts[0].address.family(), AF_INET6);
  EXPECT_NE(result.attempts[0].outcome, AttemptOutcome::kConnected);
  EXPECT_EQ(result.attempts[1].address.family(), AF_INET);
  EXPECT_EQ(result.attempts[1].outcome, AttemptOutcome::kConnected);
}

TEST(HappyEyeballs, AllRefusedIsAFailureWithEveryAttempt) {
  Listener live = listen_on("127.0.0.4");
  std::string port = std::to_string(live.port);
  ConnectResult result =
      connect_happy_eyeballs({address("127.0.0.5:" + port), address("127.0.0.6:" + port), address("127.0.0.7:" + port)}, {});
  EXPECT_FALSE(result.connected());
  ASSERT_EQ(result.attempts.size(), 3u);
  for (const auto& attempt : result.attempts) EXPECT_EQ(attempt.outcome, AttemptOutcome::kRefused);
  EXPECT_FALSE(connect_happy_eyeballs({}, {}).connected());
}

}  // namespace
}  // namespace cutover::client
