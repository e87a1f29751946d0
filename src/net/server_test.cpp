// Tests of the UDP and TCP listeners over real loopback sockets with an echo handler.
// Every blocking read has a 10 s socket timeout only as a safety net; no test measures time.
#include "net/server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>

#include "net/tcp_framing.h"

namespace cutover::net {
namespace {

using Bytes = std::vector<std::uint8_t>;

// Echoes every message except those starting with 'x', which get no reply.
bool echo(std::span<const std::uint8_t> query, Transport, const sockaddr_storage&, Bytes& response) {
  if (!query.empty() && query[0] == 'x') return false;
  response.assign(query.begin(), query.end());
  return true;
}

Bytes bytes(std::string_view text) { return Bytes(text.begin(), text.end()); }

class Client {
 public:
  // `source`: an IPv4 address of 127.0.0.0/8 to connect from (all of it is loopback), so
  // one test can be several clients.
  Client(const SocketAddress& server, int type, const char* source = nullptr)
      : fd_(::socket(server.family(), type, 0)) {
    timeval safety{10, 0};
    ::setsockopt(fd_.get(), SOL_SOCKET, SO_RCVTIMEO, &safety, sizeof safety);
    if (source != nullptr) {
      sockaddr_in local{};
      local.sin_family = AF_INET;
      ::inet_pton(AF_INET, source, &local.sin_addr);
      if (::bind(fd_.get(), reinterpret_cast<const sockaddr*>(&local), sizeof local) != 0) return;
    }
    connected_ = ::connect(fd_.get(), reinterpret_cast<const sockaddr*>(&server.storage), server.length) == 0;
  }
  bool connected() const { return connected_; }
  void send(const Bytes& data) {
    ASSERT_EQ(::send(fd_.get(), data.data(), data.size(), MSG_NOSIGNAL), static_cast<ssize_t>(data.size()));
  }
  Bytes receive_datagram() {
    Bytes buffer(70000);
    ssize_t n = ::recv(fd_.get(), buffer.data(), buffer.size(), 0);
    buffer.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return buffer;
  }
  // Reads exactly `count` bytes; fewer when the peer closes first.
  Bytes receive_exactly(std::size_t count) {
    Bytes out(count);
    std::size_t got = 0;
    while (got < count) {
      ssize_t n = ::recv(fd_.get(), out.data() + got, count - got, 0);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    out.resize(got);
    return out;
  }
  Bytes receive_framed() {
    Bytes prefix = receive_exactly(2);
    if (prefix.size() < 2) return {};
    return receive_exactly((std::size_t{prefix[0]} << 8) | prefix[1]);
  }
  // True when the server closed the connection (orderly or by reset).
  bool closed_by_peer() {
    std::uint8_t byte;
    ssize_t n = ::recv(fd_.get(), &byte, 1, 0);
    return n == 0 || (n < 0 && errno == ECONNRESET);
  }

 private:
  UniqueFd fd_;
  bool connected_ = false;
};

Bytes framed(const Bytes& message) {
  Bytes out;
  append_framed(out, message);
  return out;
}

std::unique_ptr<NetServer> start_server(const std::string& address, TcpOptions tcp = {}, std::size_t threads = 2) {
  auto parsed = parse_socket_address(address);
  EXPECT_TRUE(parsed.ok());
  NetOptions options;
  options.listen.push_back(*parsed);
  options.threads = threads;
  options.tcp = tcp;
  auto server = NetServer::start(options, echo);
  EXPECT_TRUE(server.ok()) << (server.ok() ? "" : server.error().message);
  return server.ok() ? std::move(*server) : nullptr;
}

TEST(UdpListener, EchoesDatagramsLargerThan512Bytes) {
  auto server = start_server("127.0.0.1:0");
  ASSERT_TRUE(server);
  SocketAddress address = server->addresses().at(0);
  EXPECT_NE(address.port(), 0);
  Client client(address, SOCK_DGRAM);
  client.send(bytes("hello"));
  EXPECT_EQ(client.receive_datagram(), bytes("hello"));
  Bytes large(3000, 'q');
  client.send(large);
  EXPECT_EQ(client.receive_datagram(), large);
}

TEST(UdpListener, SendsNothingForDroppedOrEmptyDatagrams) {
  auto server = start_server("127.0.0.1:0");
  ASSERT_TRUE(server);
  Client client(server->addresses().at(0), SOCK_DGRAM);
  client.send(bytes("x-dropped"));
  client.send(Bytes{});
  client.send(Bytes(kMaxUdpQuery + 1, 'o'));
  client.send(bytes("after"));
  // The first datagram back is the answer to the last query: the others produced nothing.
  EXPECT_EQ(client.receive_datagram(), bytes("after"));
}

TEST(UdpListener, ServesIpv6WhenAvailable) {
  auto parsed = parse_socket_address("[::1]:0");
  ASSERT_TRUE(parsed.ok());
  NetOptions options;
  options.listen.push_back(*parsed);
  auto server = NetServer::start(options, echo);
  if (!server.ok()) GTEST_SKIP() << "no IPv6 loopback: " << server.error().message;
  Client client((*server)->addresses().at(0), SOCK_DGRAM);
  client.send(bytes("six"));
  EXPECT_EQ(client.receive_datagram(), bytes("six"));
}

TEST(NetServer, BindFailureIsReported) {
  auto first = start_server("127.0.0.1:0");
  ASSERT_TRUE(first);
  // Another server with reuse-port sockets could share the port, so bind a non-local address.
  auto parsed = parse_socket_address("192.0.2.1:53");
  ASSERT_TRUE(parsed.ok());
  NetOptions options;
  options.listen.push_back(*parsed);
  auto second = NetServer::start(options, echo);
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().message.find("192.0.2.1:53"), std::string::npos);
}

TEST(TcpListener, AnswersPipelinedQueriesInOrder) {
  auto server = start_server("127.0.0.1:0");
  ASSERT_TRUE(server);
  Client client(server->addresses().at(0), SOCK_STREAM);
  ASSERT_TRUE(client.connected());
  Bytes stream;
  for (std::string text : {"one", "x-no-answer", "two", "three"}) {
    Bytes part = framed(bytes(text));
    stream.insert(stream.end(), part.begin(), part.end());
  }
  client.send(stream);
  EXPECT_EQ(client.receive_framed(), bytes("one"));
  EXPECT_EQ(client.receive_framed(), bytes("two"));
  EXPECT_EQ(client.receive_framed(), bytes("three"));
}

TEST(TcpListener, ReassemblesAQuerySentByteByByte) {
  auto server = start_server("127.0.0.1:0");
  ASSERT_TRUE(server);
  Client client(server->addresses().at(0), SOCK_STREAM);
  ASSERT_TRUE(client.connected());
  for (std::uint8_t byte : framed(bytes("slow"))) client.send(Bytes{byte});
  EXPECT_EQ(client.receive_framed(), bytes("slow"));
}

TEST(TcpListener, EchoesTheLargestMessage) {
  auto server = start_server("127.0.0.1:0");
  ASSERT_TRUE(server);
  Client client(server->addresses().at(0), SOCK_STREAM);
  ASSERT_TRUE(client.connected());
  Bytes large(kMaxTcpMessage, 'L');
  client.send(framed(large));
  EXPECT_EQ(client.receive_framed(), large);
}

TEST(TcpListener, AnswersBeforeClosingAfterClientHalfClose) {
  auto server = start_server("127.0.0.1:0");
  ASSERT_TRUE(server);
  auto address = server->addresses().at(0);
  UniqueFd fd(::socket(AF_INET, SOCK_STREAM, 0));
  timeval safety{10, 0};
  ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &safety, sizeof safety);
  ASSERT_EQ(::connect(fd.get(), reinterpret_cast<const sockaddr*>(&address.storage), address.length), 0);
  Bytes query = framed(bytes("bye"));
  ASSERT_EQ(::send(fd.get(), query.data(), query.size(), 0), static_cast<ssize_t>(query.size()));
  ::shutdown(fd.get(), SHUT_WR);
  std::uint8_t reply[16];
  std::size_t got = 0;
  while (true) {
    ssize_t n = ::recv(fd.get(), reply + got, sizeof reply - got, 0);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  EXPECT_EQ(Bytes(reply, reply + got), query);
}

TEST(TcpListener, DropsAStalledHalfMessageAfterIdleTimeout) {
  auto server = start_server("127.0.0.1:0", TcpOptions{.idle_timeout = std::chrono::milliseconds(50)});
  ASSERT_TRUE(server);
  Client client(server->addresses().at(0), SOCK_STREAM);
  ASSERT_TRUE(client.connected());
  client.send(Bytes{0, 20, 'p'});  // promises 20 bytes, sends one
  EXPECT_TRUE(client.closed_by_peer());
}

TEST(TcpListener, ClosesOnZeroLengthPrefix) {
  auto server = start_server("127.0.0.1:0");
  ASSERT_TRUE(server);
  Client client(server->addresses().at(0), SOCK_STREAM);
  ASSERT_TRUE(client.connected());
  client.send(Bytes{0, 0});
  EXPECT_TRUE(client.closed_by_peer());
}

TEST(TcpListener, AtTheLimitANewcomerTakesTheSlotOfTheStalestStalledConnection) {
  auto server = start_server("127.0.0.1:0", TcpOptions{.max_connections = 2}, 1);
  ASSERT_TRUE(server);
  auto address = server->addresses().at(0);
  Client answered(address, SOCK_STREAM);
  answered.send(framed(bytes("first")));
  ASSERT_EQ(answered.receive_framed(), bytes("first"));  // accepted, counted, now idle
  Client stalled(address, SOCK_STREAM);
  stalled.send(Bytes{0, 20, 's'});  // promises 20 bytes, sends one
  Client check(address, SOCK_STREAM);
  check.send(framed(bytes("check")));
  // `check` itself was the newcomer: it displaced the stalled connection, not the idle one.
  EXPECT_EQ(check.receive_framed(), bytes("check"));
  EXPECT_TRUE(stalled.closed_by_peer());
  answered.send(framed(bytes("still")));
  EXPECT_EQ(answered.receive_framed(), bytes("still"));
}

TEST(TcpListener, AtTheLimitWithNothingStalledTheOldestIdleConnectionGoes) {
  auto server = start_server("127.0.0.1:0", TcpOptions{.max_connections = 2}, 1);
  ASSERT_TRUE(server);
  auto address = server->addresses().at(0);
  Client oldest(address, SOCK_STREAM);
  oldest.send(framed(bytes("one")));
  ASSERT_EQ(oldest.receive_framed(), bytes("one"));
  Client newer(address, SOCK_STREAM);
  newer.send(framed(bytes("two")));
  ASSERT_EQ(newer.receive_framed(), bytes("two"));
  Client newcomer(address, SOCK_STREAM);
  newcomer.send(framed(bytes("three")));
  EXPECT_EQ(newcomer.receive_framed(), bytes("three"));
  EXPECT_TRUE(oldest.closed_by_peer());
  newer.send(framed(bytes("again")));
  EXPECT_EQ(newer.receive_framed(), bytes("again"));
}

TEST(TcpListener, ConnectionsBeyondAClientsShareAreRefused) {
  auto server = start_server("127.0.0.1:0", TcpOptions{.max_connections_per_client = 2}, 1);
  ASSERT_TRUE(server);
  auto address = server->addresses().at(0);
  Client first(address, SOCK_STREAM, "127.0.0.9");
  Client second(address, SOCK_STREAM, "127.0.0.9");
  for (Client* client : {&first, &second}) {
    client->send(framed(bytes("mine")));
    ASSERT_EQ(client->receive_framed(), bytes("mine"));  // both accepted and counted
  }
  Client third(address, SOCK_STREAM, "127.0.0.9");
  third.send(framed(bytes("more")));
  EXPECT_TRUE(third.closed_by_peer());
  Client elsewhere(address, SOCK_STREAM, "127.0.0.10");
  elsewhere.send(framed(bytes("other")));
  EXPECT_EQ(elsewhere.receive_framed(), bytes("other"));
  first.send(framed(bytes("still")));
  EXPECT_EQ(first.receive_framed(), bytes("still"));
}

TEST(NetServer, StopsWithOpenConnections) {
  auto server = start_server("127.0.0.1:0");
  ASSERT_TRUE(server);
  Client client(server->addresses().at(0), SOCK_STREAM);
  client.send(Bytes{0, 10});
  server->stop();
  EXPECT_TRUE(client.closed_by_peer());
}

}  // namespace
}  // namespace cutover::net
