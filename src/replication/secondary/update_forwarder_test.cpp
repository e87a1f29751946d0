// The UPDATE relay: the ID swap keeps a TSIG valid both ways (RFC 8945 §4.3.1), the primary's
// reply reaches the client byte for byte under the client's ID, and a primary that cannot be
// reached is SERVFAIL. The primary here is a raw UDP socket on loopback, not a mock of one.
#include "replication/secondary/update_forwarder.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <future>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include "tsig/tsig.h"

namespace cutover::replication {
namespace {

constexpr std::uint16_t kClientId = 0x1234;

tsig::Key update_key() {
  const char* secret = "a-secret-for-the-forwarding-test";
  return tsig::Key{*dns::Name::from_text("update-key."), tsig::Algorithm::kHmacSha256,
                   std::vector<std::uint8_t>(secret, secret + std::strlen(secret))};
}

// An UPDATE of example.test. adding www A 192.0.2.80 (RFC 2136 §2.5.1), unsigned.
std::vector<std::uint8_t> update_request(const char* zone = "example.test.") {
  dns::Message message;
  message.header.id = kClientId;
  message.header.opcode = dns::Opcode::kUpdate;
  message.questions.push_back({*dns::Name::from_text(zone), dns::RRType::SOA, dns::RRClass::IN});
  message.authorities.push_back(
      {*dns::Name::from_text("www.example.test."), dns::RRType::A, dns::RRClass::IN, 60, {192, 0, 2, 80}});
  return dns::encode_message(message);
}

// The reply a primary sends to `request` (its ID and zone), signed when `context` is.
std::vector<std::uint8_t> primary_reply(std::span<const std::uint8_t> request, dns::Rcode rcode,
                                        const tsig::RequestContext* context = nullptr) {
  dns::Message reply;
  reply.header.id = dns::parse_header(request)->id;
  reply.header.qr = true;
  reply.header.opcode = dns::Opcode::kUpdate;
  reply.header.rcode = static_cast<std::uint8_t>(rcode);
  reply.questions.push_back(*update_zone(request));
  auto wire = dns::encode_message(reply);
  if (context != nullptr) tsig::ResponseSigner(*context, 1'700'000'000).sign(wire);
  return wire;
}

TEST(UpdateForwarder, TheZoneSectionIsReadWithoutTheRest) {
  auto zone = update_zone(update_request());
  ASSERT_TRUE(zone.ok());
  EXPECT_EQ(zone->name.to_text(), "example.test.");
  EXPECT_EQ(zone->type, dns::RRType::SOA);
  auto request = update_request();
  request.resize(dns::kHeaderSize + 4);  // cut inside the zone name
  EXPECT_FALSE(update_zone(request).ok());
  EXPECT_FALSE(update_zone(std::vector<std::uint8_t>(5, 0)).ok());
}

TEST(UpdateForwarder, AnIdSwapChangesTheTwoIdBytesOnly) {
  auto request = update_request();
  auto swapped = with_message_id(request, 0xBEEF);
  ASSERT_EQ(swapped.size(), request.size());
  EXPECT_EQ(swapped[0], 0xBE);
  EXPECT_EQ(swapped[1], 0xEF);
  EXPECT_TRUE(std::equal(request.begin() + 2, request.end(), swapped.begin() + 2));
  EXPECT_TRUE(with_message_id(std::vector<std::uint8_t>(11, 0), 1).empty());
}

// The client signs with its ID; the primary verifies the request under the forwarder's ID and
// signs its reply under that ID; the client verifies the reply with its own ID put back.
TEST(UpdateForwarder, ASignedUpdateVerifiesAtThePrimaryAndItsReplyAtTheClientAcrossTheIdSwap) {
  const std::uint64_t now = 1'700'000'000;
  tsig::Key key = update_key();
  auto request = update_request();
  auto request_mac = tsig::sign_request(request, key, now);

  auto forwarded = with_message_id(request, 0xBEEF);
  auto context = tsig::verify_request(forwarded, tsig::KeyRing({key}), now);
  ASSERT_TRUE(context.ok());
  EXPECT_TRUE(context->valid()) << tsig::tsig_error_text(static_cast<std::uint16_t>(context->error));
  EXPECT_EQ(context->request.original_id, kClientId);

  // The check is real: one changed byte past the header and the primary refuses it.
  auto spoiled = forwarded;
  spoiled[dns::kHeaderSize + 3] ^= 0x20;
  auto refused = tsig::verify_request(spoiled, tsig::KeyRing({key}), now);
  ASSERT_TRUE(refused.ok());
  EXPECT_TRUE(refused->failed());

  auto reply = primary_reply(forwarded, dns::Rcode::kNoError, &*context);
  auto relayed = with_message_id(reply, kClientId);
  EXPECT_EQ(dns::parse_header(relayed)->id, kClientId);
  tsig::ResponseVerifier verifier(key, request_mac);
  EXPECT_TRUE(verifier.verify(relayed, now).ok());
  EXPECT_TRUE(verifier.complete());
}

// A primary on a loopback UDP socket: answers each datagram with `reply(datagram)` and keeps
// the last datagram it received. Bounded: it serves `count` datagrams or waits 10 s.
class UdpPrimary {
 public:
  using Reply = std::function<std::vector<std::uint8_t>(std::span<const std::uint8_t>)>;
  // `port` 0: the kernel picks one.
  UdpPrimary(Reply reply, int count, std::uint16_t port = 0) {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bound_ = ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    socklen_t length = sizeof address;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this, reply = std::move(reply), count] {
      std::vector<std::uint8_t> buffer(65535);
      for (int served = 0; served < count;) {
        pollfd ready{fd_, POLLIN, 0};
        if (::poll(&ready, 1, 10'000) <= 0) return;
        sockaddr_storage from{};
        socklen_t from_length = sizeof from;
        ssize_t got = ::recvfrom(fd_, buffer.data(), buffer.size(), 0, reinterpret_cast<sockaddr*>(&from), &from_length);
        if (got <= 0) continue;
        received_.assign(buffer.begin(), buffer.begin() + got);
        auto wire = reply(received_);
        ::sendto(fd_, wire.data(), wire.size(), 0, reinterpret_cast<sockaddr*>(&from), from_length);
        ++served;
      }
    });
  }
  ~UdpPrimary() {
    if (thread_.joinable()) thread_.join();
    ::close(fd_);
  }
  bool bound() const { return bound_; }
  std::uint16_t port() const { return port_; }
  net::SocketAddress address() const { return *net::parse_socket_address("127.0.0.1:" + std::to_string(port_)); }
  // The datagram the primary received; call after the exchange (joins the thread).
  const std::vector<std::uint8_t>& received() {
    if (thread_.joinable()) thread_.join();
    return received_;
  }

 private:
  int fd_ = -1;
  bool bound_ = false;
  std::uint16_t port_ = 0;
  std::thread thread_;
  std::vector<std::uint8_t> received_;
};

// The same primary's TCP side on `port`: answers one framed request with `reply(request)`.
// Bounded: it waits 10 s for the connection and for each read.
class TcpPrimary {
 public:
  TcpPrimary(UdpPrimary::Reply reply, std::uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int on = 1;
    ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bound_ = ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 && ::listen(fd_, 1) == 0;
    if (!bound_) return;
    thread_ = std::thread([this, reply = std::move(reply)] {
      pollfd ready{fd_, POLLIN, 0};
      if (::poll(&ready, 1, 10'000) <= 0) return;
      int connection = ::accept(fd_, nullptr, nullptr);
      if (connection < 0) return;
      timeval wait{10, 0};
      ::setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
      std::uint8_t length[2];
      if (::recv(connection, length, 2, MSG_WAITALL) == 2) {
        std::vector<std::uint8_t> request((length[0] << 8) | length[1]);
        if (::recv(connection, request.data(), request.size(), MSG_WAITALL) == static_cast<ssize_t>(request.size())) {
          received_ = request;
          auto wire = reply(request);
          std::vector<std::uint8_t> framed{static_cast<std::uint8_t>(wire.size() >> 8), static_cast<std::uint8_t>(wire.size())};
          framed.insert(framed.end(), wire.begin(), wire.end());
          (void)::send(connection, framed.data(), framed.size(), MSG_NOSIGNAL);
        }
      }
      ::close(connection);
    });
  }
  ~TcpPrimary() {
    if (thread_.joinable()) thread_.join();
    ::close(fd_);
  }
  bool bound() const { return bound_; }
  const std::vector<std::uint8_t>& received() {
    if (thread_.joinable()) thread_.join();
    return received_;
  }

 private:
  int fd_ = -1;
  bool bound_ = false;
  std::thread thread_;
  std::vector<std::uint8_t> received_;
};

TEST(UpdateForwarder, ThePrimarysReplyReachesTheClientUnderTheClientsIdAndOtherwiseUnchanged) {
  std::vector<std::uint8_t> sent_reply;
  UdpPrimary primary(
      [&sent_reply](std::span<const std::uint8_t> datagram) {
        sent_reply = primary_reply(datagram, dns::Rcode::kNotAuth);
        return sent_reply;
      },
      1);
  base::Logger logger{nullptr, base::LogLevel::kError};
  UpdateForwarder forwarder({{*dns::Name::from_text("example.test."), primary.address()}}, logger);
  auto request = update_request("EXAMPLE.test.");
  const ForwardedZone* zone = forwarder.zone_of(request);
  ASSERT_NE(zone, nullptr);

  auto response = forwarder.forward(request, base::Transport::kUdp, *zone, "127.0.0.1#5");
  const auto& received = primary.received();
  ASSERT_EQ(received.size(), request.size());
  EXPECT_TRUE(std::equal(request.begin() + 2, request.end(), received.begin() + 2));  // only the ID differs
  ASSERT_EQ(response.size(), sent_reply.size());
  EXPECT_EQ(dns::parse_header(response)->id, kClientId);
  EXPECT_EQ(dns::parse_header(response)->rcode, static_cast<std::uint8_t>(dns::Rcode::kNotAuth));
  EXPECT_TRUE(std::equal(sent_reply.begin() + 2, sent_reply.end(), response.begin() + 2));
}

// RFC 2136 §6.2 leaves UDP or TCP to the forwarder; a truncated UDP reply is asked again over
// TCP, and the client gets the TCP reply.
TEST(UpdateForwarder, ATruncatedReplyIsAskedAgainOverTcp) {
  auto truncated = [](std::span<const std::uint8_t> datagram) {
    if (!update_zone(datagram).ok()) return std::vector<std::uint8_t>{};  // the wake-up below
    auto wire = primary_reply(datagram, dns::Rcode::kNoError);
    wire[2] |= 0x02;  // TC
    return wire;
  };
  std::vector<std::uint8_t> full_reply;
  auto full = [&full_reply](std::span<const std::uint8_t> request) {
    full_reply = primary_reply(request, dns::Rcode::kNxRrset);
    return full_reply;
  };
  // The TCP side needs the UDP side's port; a port taken over TCP by someone else is tried
  // again with another (at most 20 times).
  std::unique_ptr<UdpPrimary> udp;
  std::unique_ptr<TcpPrimary> tcp;
  for (int attempt = 0; attempt < 20 && !(tcp && tcp->bound()); ++attempt) {
    tcp.reset();
    udp = std::make_unique<UdpPrimary>(truncated, 1);
    tcp = std::make_unique<TcpPrimary>(full, udp->port());
    if (!tcp->bound()) {
      // Wake the UDP side so it ends at once instead of waiting out its bound.
      int wake = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
      auto to = udp->address();
      (void)::sendto(wake, "x", 1, 0, reinterpret_cast<const sockaddr*>(&to.storage), to.length);
      ::close(wake);
    }
  }
  ASSERT_TRUE(tcp && tcp->bound());
  base::Logger logger{nullptr, base::LogLevel::kError};
  UpdateForwarder forwarder({{*dns::Name::from_text("example.test."), udp->address()}}, logger);
  auto request = update_request();
  auto response = forwarder.forward(request, base::Transport::kUdp, *forwarder.zone_of(request), "127.0.0.1#5");
  ASSERT_FALSE(udp->received().empty());
  const auto& over_tcp = tcp->received();
  ASSERT_EQ(over_tcp.size(), request.size());
  EXPECT_TRUE(std::equal(request.begin() + 2, request.end(), over_tcp.begin() + 2));
  ASSERT_EQ(response.size(), full_reply.size());
  EXPECT_EQ(dns::parse_header(response)->id, kClientId);
  EXPECT_FALSE(dns::parse_header(response)->tc);
  EXPECT_EQ(dns::parse_header(response)->rcode, static_cast<std::uint8_t>(dns::Rcode::kNxRrset));
}

// Each relayed update holds its thread until the primary answers; beyond max_in_flight the
// next is SERVFAIL at once. Gated, not timed: the first update is known to wait at the
// primary (it has received it and holds the reply) while the second is sent.
TEST(UpdateForwarder, UpdatesBeyondTheCapAreServfailWithoutWaiting) {
  std::promise<void> arrived;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  int calls = 0;  // the primary's thread only
  UdpPrimary primary(
      [&arrived, &calls, released](std::span<const std::uint8_t> datagram) {
        if (calls++ == 0) {  // the first update waits at the primary until released
          arrived.set_value();
          released.wait();
        }
        return primary_reply(datagram, dns::Rcode::kNoError);
      },
      2);
  std::FILE* log = std::tmpfile();
  ASSERT_NE(log, nullptr);
  base::Logger logger{log, base::LogLevel::kInfo};
  UpdateForwarder forwarder({{*dns::Name::from_text("example.test."), primary.address()}}, logger,
                            std::chrono::seconds(20), 1);
  auto request = update_request();
  const ForwardedZone& zone = *forwarder.zone_of(request);
  std::vector<std::uint8_t> first;
  std::thread first_client([&] { first = forwarder.forward(request, base::Transport::kUdp, zone, "127.0.0.1#5"); });
  arrived.get_future().wait();

  auto second = forwarder.forward(request, base::Transport::kUdp, zone, "127.0.0.1#6");
  release.set_value();
  first_client.join();
  EXPECT_EQ(dns::parse_header(second)->rcode, static_cast<std::uint8_t>(dns::Rcode::kServFail));
  EXPECT_EQ(dns::parse_header(first)->rcode, static_cast<std::uint8_t>(dns::Rcode::kNoError));
  // The slot is free again once the first update has its answer.
  auto third = forwarder.forward(request, base::Transport::kUdp, zone, "127.0.0.1#7");
  EXPECT_EQ(dns::parse_header(third)->rcode, static_cast<std::uint8_t>(dns::Rcode::kNoError));

  std::fflush(log);
  std::rewind(log);
  std::string text;
  for (int c = std::fgetc(log); c != EOF; c = std::fgetc(log)) text.push_back(static_cast<char>(c));
  std::fclose(log);
  EXPECT_EQ(text.find("busy: 1 forwarded updates at once already wait for a primary"), text.rfind("busy: 1 forwarded updates at once already wait for a primary")) << text;
  EXPECT_NE(text.find("client=127.0.0.1#6 primary=127.0.0.1:"), std::string::npos) << text;
  EXPECT_NE(text.find("busy: 1 forwarded updates at once already wait for a primary"), std::string::npos) << text;
}

TEST(UpdateForwarder, OnlyForwardedZonesAreForwarded) {
  base::Logger logger{nullptr, base::LogLevel::kError};
  UpdateForwarder forwarder({{*dns::Name::from_text("example.test."), *net::parse_socket_address("127.0.0.1:1")}}, logger);
  EXPECT_NE(forwarder.zone_of(update_request("example.test.")), nullptr);
  EXPECT_EQ(forwarder.zone_of(update_request("other.test.")), nullptr);
  EXPECT_EQ(forwarder.zone_of(update_request("sub.example.test.")), nullptr);
  EXPECT_EQ(forwarder.zone_of(std::vector<std::uint8_t>(12, 0)), nullptr);  // no zone section
}

// A port nobody listens on: the ICMP error (or, failing that, the timeout) is SERVFAIL to the
// client, under its ID and with its zone section, never an empty reply.
TEST(UpdateForwarder, APrimaryThatCannotBeReachedIsServfail) {
  int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  socklen_t length = sizeof address;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  std::uint16_t port = ntohs(address.sin_port);
  ::close(fd);

  base::Logger logger{nullptr, base::LogLevel::kError};
  UpdateForwarder forwarder(
      {{*dns::Name::from_text("example.test."), *net::parse_socket_address("127.0.0.1:" + std::to_string(port))}}, logger);
  auto request = update_request();
  auto response = forwarder.forward(request, base::Transport::kUdp, *forwarder.zone_of(request), "127.0.0.1#5");
  auto header = dns::parse_header(response);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->id, kClientId);
  EXPECT_TRUE(header->qr);
  EXPECT_EQ(header->opcode, dns::Opcode::kUpdate);
  EXPECT_EQ(header->rcode, static_cast<std::uint8_t>(dns::Rcode::kServFail));
  auto zone = update_zone(response);
  ASSERT_TRUE(zone.ok());
  EXPECT_EQ(zone->name.to_text(), "example.test.");
}

}  // namespace
}  // namespace cutover::replication
