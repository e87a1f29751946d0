// Tests of the stub client against small loopback peers written here: reply matching,
// timeouts, refused ports, TC fallback to TCP.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <thread>

#include <gtest/gtest.h>

#include "client/client_test_support.h"
#include "client/query.h"

namespace cutover::client {
namespace {

using namespace std::chrono_literals;

using UdpPeer = testing::UdpDnsPeer;

dns::Message reply_to(const dns::Message& request) {
  dns::Message reply;
  reply.header = request.header;
  reply.header.qr = true;
  reply.header.aa = true;
  reply.questions = request.questions;
  return reply;
}

net::SocketAddress loopback(std::uint16_t port) { return *parse_server("127.0.0.1:" + std::to_string(port)); }

TEST(ParseServer, AcceptsAddressWithAndWithoutPort) {
  EXPECT_EQ(parse_server("127.0.0.1")->port(), 53);
  EXPECT_EQ(parse_server("127.0.0.1:5300")->port(), 5300);
  EXPECT_EQ(parse_server("::1")->port(), 53);
  EXPECT_EQ(parse_server("[::1]:5301")->port(), 5301);
  EXPECT_FALSE(parse_server("not-an-address").ok());
}

TEST(Query, IgnoresRepliesWithTheWrongIdOrQuestion) {
  UdpPeer peer([](const dns::Message& request) {
    auto wrong_id = reply_to(request);
    wrong_id.header.id = static_cast<std::uint16_t>(request.header.id + 1);
    auto wrong_question = reply_to(request);
    wrong_question.questions[0].type = dns::RRType::MX;
    auto right = reply_to(request);
    right.answers.push_back({request.questions[0].name, dns::RRType::A, dns::RRClass::IN, 60, {192, 0, 2, 7}});
    return std::vector<dns::Message>{wrong_id, wrong_question, right};
  });
  auto result = query(loopback(peer.port()), *dns::Name::from_text("www.example.test."), dns::RRType::A);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result->response.answers.size(), 1u);
  EXPECT_FALSE(result->over_tcp);
}

TEST(Query, SilentServerTimesOut) {
  UdpPeer peer([](const dns::Message&) { return std::vector<dns::Message>{}; });
  QueryOptions options;
  options.timeout = 100ms;
  options.tries = 2;
  auto result = query(loopback(peer.port()), *dns::Name::from_text("x.test."), dns::RRType::A, options);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, base::ErrorCode::kTimeout);
}

TEST(Query, TruncatedReplyIsRetriedOverTcpAndTcpFailureIsReported) {
  UdpPeer peer([](const dns::Message& request) {
    auto reply = reply_to(request);
    reply.header.tc = true;
    return std::vector<dns::Message>{reply};
  });
  QueryOptions options;
  options.timeout = 300ms;
  // Nothing listens on TCP at the peer's port, so the fallback must fail with an I/O error.
  auto retried = query(loopback(peer.port()), *dns::Name::from_text("x.test."), dns::RRType::A, options);
  ASSERT_FALSE(retried.ok());
  EXPECT_NE(retried.error().message.find("TCP"), std::string::npos) << retried.error().message;
  options.tcp_on_truncation = false;
  auto kept = query(loopback(peer.port()), *dns::Name::from_text("x.test."), dns::RRType::A, options);
  ASSERT_TRUE(kept.ok());
  EXPECT_TRUE(kept->response.header.tc);
}

}  // namespace
}  // namespace cutover::client
