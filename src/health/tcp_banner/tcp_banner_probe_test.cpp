// tcp-banner probe on 127.0.0.1: the expected banner passes; a wrong banner, a server that
// never speaks and one that hangs up early fail with their reasons; the `expect` option is
// read and checked by the probe type itself.
#include "health/tcp_banner/tcp_banner_probe.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <map>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

namespace cutover::health {
namespace {

// A listening socket on 127.0.0.1. With a banner, a thread accepts one connection, sends
// the banner, then keeps the connection open until the probe hangs up (or hangs up itself
// when `close_after_send`). Every wait is bounded.
class BannerServer {
 public:
  explicit BannerServer(std::optional<std::string> banner = std::nullopt, bool close_after_send = false) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    EXPECT_EQ(::listen(fd_, 4), 0);
    socklen_t length = sizeof(address);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    if (banner) thread_ = std::thread([this, text = *banner, close_after_send] { serve(text, close_after_send); });
  }
  ~BannerServer() {
    if (thread_.joinable()) thread_.join();
    ::close(fd_);
  }
  std::uint16_t port() const { return port_; }

 private:
  void serve(const std::string& banner, bool close_after_send) {
    pollfd waiting{fd_, POLLIN, 0};
    if (::poll(&waiting, 1, 5000) != 1) return;
    int client = ::accept(fd_, nullptr, nullptr);
    if (client < 0) return;
    ::send(client, banner.data(), banner.size(), MSG_NOSIGNAL);
    if (!close_after_send) {
      pollfd peer{client, POLLIN, 0};
      char byte = 0;
      if (::poll(&peer, 1, 5000) == 1) (void)::recv(client, &byte, 1, 0);  // 0: the probe closed
    }
    ::close(client);
  }

  int fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  std::uint16_t port_ = 0;
  std::thread thread_;
};

Target loopback(std::uint16_t port) {
  Target target;
  target.pool = "mail";
  target.address = "127.0.0.1";
  target.port = port;
  target.socket = *net::parse_socket_address("127.0.0.1:" + std::to_string(port));
  return target;
}

constexpr std::chrono::milliseconds kTimeout{2000};

TEST(TcpBannerProbe, PassesWhenTheBannerStartsWithThePrefix) {
  BannerServer ssh("SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n");
  ProbeResult result = probe_tcp_banner(loopback(ssh.port()), "SSH-2.0-", kTimeout);
  EXPECT_EQ(result.outcome, ProbeOutcome::kPass) << result.detail;
  EXPECT_EQ(result.detail, "banner \"SSH-2.0-\"");
}

TEST(TcpBannerProbe, FailsOnAnotherServicesBanner) {
  BannerServer smtp("220 mail.example.test ESMTP\r\n");
  ProbeResult result = probe_tcp_banner(loopback(smtp.port()), "SSH-2.0-", kTimeout);
  EXPECT_EQ(result.outcome, ProbeOutcome::kFail);
  EXPECT_EQ(result.detail, "banner \"220 mail\" does not start with \"SSH-2.0-\"");
}

TEST(TcpBannerProbe, FailsAtTheTimeoutWhenTheServerNeverSpeaks) {
  BannerServer silent;  // the kernel completes the handshake; nothing is ever sent
  ProbeResult result = probe_tcp_banner(loopback(silent.port()), "220 ", std::chrono::milliseconds(200));
  EXPECT_EQ(result.outcome, ProbeOutcome::kFail);
  EXPECT_EQ(result.detail, "no banner within the 200 ms timeout (0 bytes: \"\")");
}

TEST(TcpBannerProbe, FailsWhenTheServerHangsUpMidBanner) {
  BannerServer early("SSH-", true);
  ProbeResult result = probe_tcp_banner(loopback(early.port()), "SSH-2.0-", kTimeout);
  EXPECT_EQ(result.outcome, ProbeOutcome::kFail);
  EXPECT_EQ(result.detail, "connection closed after 4 bytes of banner: \"SSH-\"");
}

TEST(TcpBannerProbe, FailsPreciselyWhenNothingListens) {
  std::uint16_t port = 0;
  { port = BannerServer().port(); }
  ProbeResult result = probe_tcp_banner(loopback(port), "220 ", kTimeout);
  EXPECT_EQ(result.outcome, ProbeOutcome::kFail);
  EXPECT_EQ(result.detail, "connect failed: Connection refused");
}

// The options as a map of key: text; fail() throws what the config reader would report.
class MapReader : public OptionReader {
 public:
  explicit MapReader(std::map<std::string, std::string> values) : values_(std::move(values)) {}
  std::string scalar(const std::string& key) const override { return values_.at(key); }
  bool boolean(const std::string& key) const override { throw unused(key); }
  std::size_t number(const std::string& key, std::size_t, std::size_t) const override { throw unused(key); }
  std::chrono::milliseconds duration(const std::string& key) const override { throw unused(key); }
  std::string file_path(const std::string& key) const override { throw unused(key); }
  std::vector<std::pair<std::string, std::string>> string_map(const std::string& key, const std::string&) const override {
    throw unused(key);
  }
  [[noreturn]] void fail(const std::string& key, const std::string& message) const override {
    throw std::invalid_argument(key + ": " + message);
  }

 private:
  static std::logic_error unused(const std::string& key) { return std::logic_error(key + ": not a tcp-banner reading"); }

  std::map<std::string, std::string> values_;
};

CheckSettings parse_check(const ProbeType& type, const std::string& expect) {
  CheckSettings settings;
  settings.type = type.name;
  auto parser = type.options(nullptr);
  parser->read("expect", MapReader({{"expect", expect}}));
  settings.options = parser->finish();
  return settings;
}

TEST(TcpBannerProbe, IsRegisteredWithItsOwnOption) {
  ProbeRegistry registry;
  register_builtin_probes(registry);
  const ProbeType* type = registry.find("tcp-banner");
  ASSERT_NE(type, nullptr);
  EXPECT_EQ(type->default_port, 0);
  EXPECT_TRUE(type->needs_port);
  EXPECT_TRUE(type->config_file_only.empty());  // it only reads: the API may set it
  EXPECT_EQ(type->option_keys, (std::vector<std::string>{"expect"}));

  CheckSettings settings = parse_check(*type, "220 ");
  ASSERT_NE(settings.options_as<TcpBannerOptions>(), nullptr);
  EXPECT_EQ(settings.options_as<TcpBannerOptions>()->expect, "220 ");
  EXPECT_EQ(type->problem(settings), std::nullopt);
  EXPECT_TRUE(registry.create(settings).ok());

  try {
    parse_check(*type, "");
    ADD_FAILURE() << "an empty prefix was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "expect: expected the banner's first bytes, like '220 ' or 'SSH-2.0-'");
  }
  CheckSettings missing;
  missing.type = "tcp-banner";
  EXPECT_EQ(type->problem(missing), "a tcp-banner check needs 'expect' (the banner's first bytes)");
  EXPECT_FALSE(registry.create(missing).ok());
}

TEST(TcpBannerProbe, RunsThroughTheRegistry) {
  ProbeRegistry registry;
  register_builtin_probes(registry);
  CheckSettings settings = parse_check(*registry.find("tcp-banner"), "220 ");
  settings.timeout = kTimeout;
  auto probe = registry.create(settings);
  ASSERT_TRUE(probe.ok());
  BannerServer smtp("220 mail.example.test ESMTP\r\n");
  ProbeResult result = (*probe)->run(loopback(smtp.port()));
  EXPECT_EQ(result.outcome, ProbeOutcome::kPass) << result.detail;
}

}  // namespace
}  // namespace cutover::health
