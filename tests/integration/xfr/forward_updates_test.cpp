// UPDATE sent to a cutover secondary with forward-updates (RFC 2136 §6): BIND's nsupdate, signed
// with a key only the primary holds, talks to the secondary; the primary applies the change
// (dig the primary), NOTIFY and IXFR bring it to the secondary (dig the secondary). A wrong key
// gets the primary's refusal relayed; a stopped primary is SERVFAIL within the forwarder's
// bound; a secondary zone without forward-updates refuses as it always did.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "support/dig.h"
#include "support/wire_exchange.h"
#include "xfr/xfr_peers.h"

namespace cutover::testing {
namespace {

constexpr const char* kUpdateSecret = "Y3V0b3Zlci11cGRhdGUta2V5LTMyLWJ5dGVzLWxvbmc=";
constexpr const char* kWrongSecret = "d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldC13cm9uZyE=";

class ForwardUpdatesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_program("nsupdate") || !have_program("dig")) GTEST_SKIP() << "nsupdate or dig not installed (bind9-dnsutils)";
  }

  // The primary: journal, the update key, allow-update, NOTIFY to the secondary's port.
  void start_primary() {
    dir_ = make_temp_dir("cutover-forward-updates");
    secondary_port_ = free_port();
    write_file(dir_ + "/zone.db", xfr_zone(10, "192.0.2.10"));
    write_file(dir_ + "/primary.yaml",
               fmt::format("writes:\n  journal: journal.db\n  tsig-keys:\n"
                           "    - {{name: update-key, algorithm: hmac-sha256, secret: \"{}\"}}\n"
                           "zones:\n  - origin: example.test\n    file: zone.db\n    allow-update: [update-key]\n"
                           "    allow-transfer: [127.0.0.1]\n    notify: [127.0.0.1:{}]\n",
                           kUpdateSecret, secondary_port_));
    primary_ = std::make_unique<CutoverServer>(ServerSpec{{}, dir_ + "/primary.yaml", "example.test.", 0, {}, {}});
  }

  // The secondary holds no key: it relays signed updates as they are.
  void start_secondary(bool forward) {
    std::filesystem::create_directories(dir_ + "/secondary");
    write_file(dir_ + "/secondary/secondary.yaml",
               secondary_config(primary_->port(), forward ? "    forward-updates: true\n" : ""));
    secondary_ = std::make_unique<CutoverServer>(
        ServerSpec{{}, dir_ + "/secondary/secondary.yaml", "example.test.", secondary_port_, {}, {}});
    ASSERT_TRUE(wait_until([&] { return serves_www(secondary_port_, "192.0.2.10"); })) << secondary_->log();
  }

  CommandResult nsupdate(std::uint16_t port, const std::string& commands, const std::string& secret,
                         std::vector<std::string> extra = {}) {
    std::string script = dir_ + "/nsupdate." + std::to_string(++runs_);
    write_file(script, fmt::format("server 127.0.0.1 {}\nzone example.test\n{}send\n", port, commands));
    std::vector<std::string> argv{"nsupdate", "-t", "5", "-y", std::string("hmac-sha256:update-key:") + secret};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back(script);
    return run_command(argv, std::chrono::seconds(30));
  }

  static std::vector<std::string> addresses(std::uint16_t port, const std::string& name) {
    return DigResult::rdatas(dig(port, name, "A").answer, "A");
  }

  std::string dir_;
  std::uint16_t secondary_port_ = 0;
  std::unique_ptr<CutoverServer> primary_;
  std::unique_ptr<CutoverServer> secondary_;
  int runs_ = 0;
};

TEST_F(ForwardUpdatesTest, ASignedUpdateSentToTheSecondaryIsAppliedByThePrimaryAndReturnsByIxfr) {
  start_primary();
  start_secondary(true);

  auto sent = Clock::now();
  auto added = nsupdate(secondary_port_, "update add new.example.test. 60 A 192.0.2.50\n", kUpdateSecret);
  ASSERT_EQ(added.exit_code, 0) << added.out << added.err << secondary_->log() << primary_->log();
  EXPECT_EQ(addresses(primary_->port(), "new.example.test."), std::vector<std::string>{"192.0.2.50"});
  ASSERT_TRUE(wait_until([&] { return addresses(secondary_port_, "new.example.test.") == std::vector<std::string>{"192.0.2.50"}; },
                         std::chrono::seconds(10)))
      << secondary_->log();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent).count();
  std::cout << "[ P ] nsupdate to the secondary until the secondary answers, ms: " << ms << '\n';
  EXPECT_EQ(serial_at(secondary_port_), serial_at(primary_->port()));
  EXPECT_TRUE(secondary_->wait_for_log("update.forwarded")) << secondary_->log();
  EXPECT_NE(secondary_->log().find("rcode=NOERROR transport=udp"), std::string::npos) << secondary_->log();
  EXPECT_TRUE(primary_->wait_for_log("update.applied")) << primary_->log();
  EXPECT_TRUE(secondary_->wait_for_log("method=ixfr ")) << secondary_->log();

  // A client on TCP is forwarded over TCP (RFC 2136 §6.2): nsupdate -v.
  auto over_tcp = nsupdate(secondary_port_, "update add new.example.test. 60 A 192.0.2.51\n", kUpdateSecret, {"-v"});
  ASSERT_EQ(over_tcp.exit_code, 0) << over_tcp.out << over_tcp.err << secondary_->log() << primary_->log();
  const std::vector<std::string> both{"192.0.2.50", "192.0.2.51"};
  EXPECT_EQ(addresses(primary_->port(), "new.example.test."), both);
  EXPECT_TRUE(secondary_->wait_for_log("transport=tcp")) << secondary_->log();
  EXPECT_TRUE(wait_until([&] { return addresses(secondary_port_, "new.example.test.") == both; }, std::chrono::seconds(10)))
      << secondary_->log();
}

TEST_F(ForwardUpdatesTest, AWrongKeyGetsThePrimarysRefusalAndChangesNothing) {
  start_primary();
  start_secondary(true);
  auto serial = serial_at(primary_->port());

  auto refused = nsupdate(secondary_port_, "update add evil.example.test. 60 A 192.0.2.66\n", kWrongSecret);
  EXPECT_NE(refused.exit_code, 0) << refused.out << refused.err;
  std::string said = refused.out + refused.err;
  EXPECT_NE(said.find("update failed: NOTAUTH(BADSIG)"), std::string::npos) << said;
  EXPECT_TRUE(primary_->wait_for_log("reason=\"TSIG BADSIG\"")) << primary_->log();
  EXPECT_TRUE(secondary_->wait_for_log("rcode=NOTAUTH")) << secondary_->log();
  EXPECT_TRUE(addresses(primary_->port(), "evil.example.test.").empty());
  EXPECT_TRUE(addresses(secondary_port_, "evil.example.test.").empty());
  EXPECT_EQ(serial_at(primary_->port()), serial);
}

// An UPDATE of example.test. adding www A 192.0.2.99, unsigned, as raw bytes.
std::vector<std::uint8_t> raw_update(std::uint16_t id) {
  dns::Message message;
  message.header.id = id;
  message.header.opcode = dns::Opcode::kUpdate;
  message.questions.push_back({*dns::Name::from_text("example.test."), dns::RRType::SOA, dns::RRClass::IN});
  message.authorities.push_back(
      {*dns::Name::from_text("www.example.test."), dns::RRType::A, dns::RRClass::IN, 60, {192, 0, 2, 99}});
  return dns::encode_message(message);
}

TEST_F(ForwardUpdatesTest, AStoppedPrimaryIsServfailWithinTheBound) {
  start_primary();
  start_secondary(true);
  primary_->stop();

  auto asked = Clock::now();
  auto reply = udp_exchange(secondary_port_, raw_update(0x4242), std::chrono::seconds(6));
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - asked).count();
  ASSERT_TRUE(reply.has_value()) << secondary_->log();
  auto header = dns::parse_header(*reply);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->id, 0x4242);
  EXPECT_EQ(header->rcode, static_cast<std::uint8_t>(dns::Rcode::kServFail));
  // The forwarder waits at most 2 s; 4 s leaves room for a loaded machine.
  EXPECT_LT(ms, 4000);
  std::cout << "[ P ] UPDATE to a secondary whose primary is down: SERVFAIL after ms: " << ms << '\n';
  EXPECT_TRUE(secondary_->wait_for_log("update.forward_failed")) << secondary_->log();

  // A primary that is there but silent (a UDP socket that never reads): the forwarder gives
  // up after half its bound on UDP (the other half is kept for a TCP retry after truncation).
  int silent = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(primary_->port());
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(silent, reinterpret_cast<sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
  asked = Clock::now();
  reply = udp_exchange(secondary_port_, raw_update(0x4343), std::chrono::seconds(6));
  ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - asked).count();
  ::close(silent);
  ASSERT_TRUE(reply.has_value()) << secondary_->log();
  EXPECT_EQ(dns::parse_header(*reply)->id, 0x4343);
  EXPECT_EQ(dns::parse_header(*reply)->rcode, static_cast<std::uint8_t>(dns::Rcode::kServFail));
  EXPECT_GE(ms, 900);
  EXPECT_LT(ms, 4000);
  std::cout << "[ P ] UPDATE to a secondary whose primary is silent: SERVFAIL after ms: " << ms << '\n';
  EXPECT_TRUE(secondary_->wait_for_log("no reply over UDP")) << secondary_->log();

  auto signed_update = nsupdate(secondary_port_, "update add late.example.test. 60 A 192.0.2.77\n", kUpdateSecret);
  EXPECT_NE(signed_update.exit_code, 0) << signed_update.out << signed_update.err;
  EXPECT_NE((signed_update.out + signed_update.err).find("update failed: SERVFAIL"), std::string::npos)
      << signed_update.out << signed_update.err;
  EXPECT_FALSE(signed_update.timed_out) << signed_update.out << signed_update.err;
  EXPECT_TRUE(secondary_->running());
  EXPECT_TRUE(serves_www(secondary_port_, "192.0.2.10"));
}

TEST_F(ForwardUpdatesTest, WithoutForwardUpdatesTheSecondaryStillRefuses) {
  start_primary();
  start_secondary(false);
  auto serial = serial_at(primary_->port());

  auto refused = nsupdate(secondary_port_, "update add new.example.test. 60 A 192.0.2.50\n", kUpdateSecret);
  EXPECT_NE(refused.exit_code, 0) << refused.out << refused.err;
  EXPECT_TRUE(secondary_->wait_for_log("update.refused")) << secondary_->log();
  EXPECT_EQ(count_occurrences(secondary_->log(), "update.forwarded"), 0u);
  EXPECT_EQ(count_occurrences(primary_->log(), "update."), 0u) << primary_->log();
  EXPECT_TRUE(addresses(primary_->port(), "new.example.test.").empty());
  EXPECT_EQ(serial_at(primary_->port()), serial);
}

}  // namespace
}  // namespace cutover::testing
