// Server hooks as ordered lists, through a real Server on 127.0.0.1: request handlers see a
// query in the order they were added until one decides, interceptors after them, and every
// observer sees every answered query; a second zone-load handler is refused; a replaced zone
// set is let go by the UDP workers' cached copies.
#include "server/server.h"

#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <memory>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "config/config.h"
#include "dns/message.h"

namespace cutover::server {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes query(const std::string& name, std::uint16_t id) {
  dns::Message message;
  message.header.id = id;
  message.questions.push_back({*dns::Name::from_text(name), dns::RRType::A, dns::RRClass::IN});
  return dns::encode_message(message);
}

// One UDP exchange with a 2 s bound; empty when nothing came back.
Bytes udp_exchange(const net::SocketAddress& server, const Bytes& packet) {
  int fd = ::socket(server.storage.ss_family, SOCK_DGRAM, 0);
  EXPECT_GE(fd, 0);
  Bytes reply(4096);
  ::sendto(fd, packet.data(), packet.size(), 0, reinterpret_cast<const sockaddr*>(&server.storage), server.length);
  pollfd ready{fd, POLLIN, 0};
  ssize_t got = ::poll(&ready, 1, 2000) == 1 ? ::recv(fd, reply.data(), reply.size(), 0) : -1;
  ::close(fd);
  reply.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  return reply;
}

class ServerHooksTest : public ::testing::Test {
 protected:
  ServerHooksTest() {
    // The server waits for these in its run loop; blocked here, before its thread starts, so
    // no other thread of the test takes them.
    sigemptyset(&signals_);
    for (int signo : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&signals_, signo);
    pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
    config_ = config::embedded_default_config();
    config_.listen = {{"127.0.0.1:0", *net::parse_socket_address("127.0.0.1:0")}};
    config_.threads = 1;
  }

  Server& make_server() {
    server_ = std::make_unique<Server>([this] { return config_; }, config_, logger_);
    return *server_;
  }

  // Runs the server until the test ends (TearDown stops it with SIGTERM).
  net::SocketAddress start(Server& server) {
    std::promise<net::SocketAddress> bound;
    auto future = bound.get_future();
    thread_ = std::thread([this, &server, &bound] {
      exit_code_ = server.run(signals_, [&bound](const std::vector<net::SocketAddress>& addresses) {
        bound.set_value(addresses.front());
      });
    });
    EXPECT_EQ(future.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    return future.get();
  }

  void TearDown() override {
    if (thread_.joinable()) {
      ::kill(::getpid(), SIGTERM);
      thread_.join();
      EXPECT_EQ(exit_code_, 0);
    }
  }

  sigset_t signals_{};
  config::Config config_;
  base::Logger logger_{stderr, base::LogLevel::kWarn};
  std::unique_ptr<Server> server_;  // outlives thread_, which TearDown joins
  std::thread thread_;
  int exit_code_ = -1;
};

TEST_F(ServerHooksTest, HandlersRunInOrderUntilOneDecidesAndEveryObserverSeesTheAnswer) {
  Server& server = make_server();
  std::atomic<int> first_saw{0};
  std::atomic<int> interceptor_saw{0};
  std::atomic<int> observed_a{0};
  std::atomic<int> observed_b{0};
  const Bytes canned = {0xab, 0xcd, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  server.add_request_handler([&](auto, auto, const auto&, auto&) {
    ++first_saw;
    return Intercept::kContinue;
  });
  // Answers only the query with id 7, with a canned message.
  server.add_request_handler([&](std::span<const std::uint8_t> packet, auto, const auto&, auto& responses) {
    if (packet.size() < 2 || packet[0] != 0 || packet[1] != 7) return Intercept::kContinue;
    responses.push_back(canned);
    return Intercept::kRespond;
  });
  server.add_interceptor([&](auto, auto, auto&) {
    ++interceptor_saw;
    return Intercept::kContinue;
  });
  server.add_query_observer([&](std::span<const auth::QueryOutcome> outcomes) { observed_a += static_cast<int>(outcomes.size()); });
  server.add_query_observer([&](std::span<const auth::QueryOutcome> outcomes) { observed_b += static_cast<int>(outcomes.size()); });
  net::SocketAddress address = start(server);

  EXPECT_EQ(udp_exchange(address, query("www.example.test.", 7)), canned);
  EXPECT_EQ(first_saw.load(), 1);
  EXPECT_EQ(interceptor_saw.load(), 0);  // the second handler decided
  EXPECT_EQ(observed_a.load(), 0);       // the engine did not answer it

  Bytes answered = udp_exchange(address, query("www.example.test.", 8));
  auto parsed = dns::parse_message(answered);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->header.id, 8);
  EXPECT_FALSE(parsed->answers.empty());
  EXPECT_EQ(first_saw.load(), 2);
  EXPECT_EQ(interceptor_saw.load(), 1);
  EXPECT_EQ(observed_a.load(), 1);
  EXPECT_EQ(observed_b.load(), 1);
}

// The UDP workers answer from their own cached copy of the zone set (base::Published): a
// replaced set must still be let go, by the next query's worker at once, and by an idle
// worker when its receive times out (about a second), not kept until traffic returns.
TEST_F(ServerHooksTest, AReplacedZoneSetIsReleasedByBusyAndByIdleWorkers) {
  Server& server = make_server();
  net::SocketAddress address = start(server);
  ASSERT_FALSE(udp_exchange(address, query("www.example.test.", 1)).empty());  // the worker holds a copy

  auto wait_until_expired = [](const std::weak_ptr<const auth::ZoneSet>& watch) {
    for (int i = 0; i < 100 && !watch.expired(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return watch.expired();
  };
  // Busy: the next query reads the new set and drops the old one.
  std::weak_ptr<const auth::ZoneSet> first = server.zones();
  server.publish(std::make_shared<const auth::ZoneSet>(server.zones()->zones()));
  Bytes answered = udp_exchange(address, query("www.example.test.", 2));
  ASSERT_TRUE(dns::parse_message(answered).ok());
  EXPECT_FALSE(dns::parse_message(answered)->answers.empty());
  EXPECT_TRUE(wait_until_expired(first));

  // Idle: no query after the publish; the worker's receive timeout drops its copy.
  std::weak_ptr<const auth::ZoneSet> second = server.zones();
  server.publish(std::make_shared<const auth::ZoneSet>(server.zones()->zones()));
  EXPECT_TRUE(wait_until_expired(second)) << "an idle worker kept a replaced zone set alive";
  answered = udp_exchange(address, query("www.example.test.", 3));
  ASSERT_TRUE(dns::parse_message(answered).ok());
  EXPECT_FALSE(dns::parse_message(answered)->answers.empty());
}

TEST_F(ServerHooksTest, ASecondZoneLoadHandlerIsRefused) {
  Server& server = make_server();
  auto handler = [](const config::Config&, std::shared_ptr<const auth::ZoneSet>, const std::vector<LoadedView>&, bool) {
    return base::Status{};
  };
  server.set_zone_load_handler(handler);
  EXPECT_THROW(server.set_zone_load_handler(handler), std::logic_error);
}

}  // namespace
}  // namespace cutover::server
