// For the client module's tests only: a real UDP DNS peer on 127.0.0.1 that answers each
// request with what a callback builds, counting the questions it saw. Thread-safe counters;
// one peer per test.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dns/message.h"
#include "dns/rdata.h"

namespace cutover::client::testing {

// An authoritative reply to `request` with its question and nothing else yet: QR, AA, the ID.
inline dns::Message authoritative_reply(const dns::Message& request) {
  dns::Message reply;
  reply.header.id = request.header.id;
  reply.header.qr = true;
  reply.header.aa = true;
  reply.questions = request.questions;
  return reply;
}

// ZONE's SOA (ns.ZONE, hostmaster.ZONE) with TTL `ttl` and MINIMUM `minimum`, for negative
// answers (RFC 2308: cached for the smaller of the two).
inline dns::ResourceRecord soa_record(const std::string& zone, std::uint32_t ttl, std::uint32_t minimum) {
  dns::SoaFields soa;
  soa.mname = *dns::Name::from_text("ns." + zone);
  soa.rname = *dns::Name::from_text("hostmaster." + zone);
  soa.minimum = minimum;
  return dns::ResourceRecord{*dns::Name::from_text(zone), dns::RRType::SOA, dns::RRClass::IN, ttl, dns::encode_soa(soa)};
}

class UdpDnsPeer {
 public:
  // Returns the replies to send (none: stay silent).
  using Responder = std::function<std::vector<dns::Message>(const dns::Message&)>;

  explicit UdpDnsPeer(Responder respond) : respond_(std::move(respond)) {
    fd_ = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    socklen_t length = sizeof(address);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    timeval wait{0, 100000};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof(wait));
    thread_ = std::thread([this] { serve(); });
  }
  ~UdpDnsPeer() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  UdpDnsPeer(const UdpDnsPeer&) = delete;
  UdpDnsPeer& operator=(const UdpDnsPeer&) = delete;

  std::uint16_t port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }
  int queries() const { return queries_.load(); }
  // "name TYPE" of every question, in arrival order.
  std::vector<std::string> questions() const {
    std::lock_guard lock(mutex_);
    return questions_;
  }

 private:
  void serve() {
    std::vector<std::uint8_t> buffer(65535);
    // Bounded: at most 600 idle waits of 100 ms (a minute) without a stop.
    for (int idle = 0; !stop_ && idle < 600;) {
      sockaddr_storage from{};
      socklen_t length = sizeof(from);
      ssize_t got = ::recvfrom(fd_, buffer.data(), buffer.size(), 0, reinterpret_cast<sockaddr*>(&from), &length);
      if (got <= 0) {
        ++idle;
        continue;
      }
      auto request = dns::parse_message(std::span(buffer.data(), static_cast<std::size_t>(got)));
      if (!request || request->questions.empty()) continue;
      {
        std::lock_guard lock(mutex_);
        questions_.push_back(request->questions[0].name.to_text() + " " + dns::type_to_text(request->questions[0].type));
      }
      ++queries_;
      for (const auto& reply : respond_(*request)) {
        auto wire = dns::encode_message(reply);
        ::sendto(fd_, wire.data(), wire.size(), 0, reinterpret_cast<sockaddr*>(&from), length);
      }
    }
  }

  Responder respond_;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> queries_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> questions_;
  std::thread thread_;
};

}  // namespace cutover::client::testing
