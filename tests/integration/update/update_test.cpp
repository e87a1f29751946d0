// DNS UPDATE (RFC 2136) with TSIG (RFC 8945) against the real server, driven by BIND's own
// nsupdate and dig: good keys (HMAC-SHA256 and -SHA512) change data, bad or missing keys,
// failing prerequisites, a foreign zone and the floor change nothing, malformed bytes get
// FORMERR while the server keeps serving, and AXFR of a zone with a transfer-key needs it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/dig.h"
#include "support/process.h"
#include "support/server.h"
#include "support/wire_client.h"

namespace cutover::testing {
namespace {

using std::chrono::seconds;

constexpr const char* kZone = R"($ORIGIN example.test.
$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
ns1 IN A 127.0.0.1
www IN A 192.0.2.10
two IN A 192.0.2.21
two IN A 192.0.2.22
)";

// base64 of "cutover-update-key-32-bytes-long", "...-64-bytes..." and a transfer key.
constexpr const char* kUpdateSecret = "Y3V0b3Zlci11cGRhdGUta2V5LTMyLWJ5dGVzLWxvbmc=";
constexpr const char* kBigSecret =
    "Y3V0b3Zlci11cGRhdGUta2V5LTY0LWJ5dGVzLWxvbmctZm9yLWhtYWMtc2hhNTEyLXRlc3RzLW9ubHkhISE=";
constexpr const char* kTransferSecret = "Y3V0b3Zlci10cmFuc2Zlci1rZXktMzItYnl0ZXMtbG9uZw==";
constexpr const char* kWrongSecret = "d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldC13cm9uZyE=";

std::string config_text(bool journal) {
  std::string text = "writes:\n";
  if (journal) text += "  journal: journal.db\n";
  text += std::string("  tsig-keys:\n") +
          "    - {name: update-key, algorithm: hmac-sha256, secret: \"" + kUpdateSecret + "\"}\n" +
          "    - {name: big-key, algorithm: hmac-sha512, secret: \"" + kBigSecret + "\"}\n" +
          "    - {name: xfer-key, algorithm: hmac-sha256, secret: \"" + kTransferSecret + "\"}\n" +
          "zones:\n  - origin: example.test\n    file: zone.db\n    allow-update: [update-key, big-key]\n" +
          "    allow-transfer: [127.0.0.1]\n    transfer-key: xfer-key\n";
  return text;
}

class UpdateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_program("nsupdate") || !have_program("dig")) GTEST_SKIP() << "nsupdate or dig not installed (bind9-dnsutils)";
    start(true);
  }

  void start(bool journal) {
    dir_ = make_temp_dir("cutover-update");
    write_file(dir_ + "/zone.db", kZone);
    write_file(dir_ + "/config.yaml", config_text(journal));
    ServerSpec spec;
    spec.config = dir_ + "/config.yaml";
    server_ = std::make_unique<CutoverServer>(spec);
  }

  // Runs nsupdate with `commands` (server and zone lines are added); `key` is the -y
  // argument, empty for an unsigned update.
  CommandResult nsupdate(const std::string& commands, const std::string& key, const std::string& zone = "example.test") {
    return cutover::testing::nsupdate(server_->port(), zone, commands, key, dir_ + "/nsupdate." + std::to_string(++runs_));
  }

  std::vector<std::string> addresses(const std::string& name) {
    return DigResult::rdatas(dig(server_->port(), name, "A").answer, "A");
  }

  std::string serial() {
    auto soa = DigResult::rdatas(dig(server_->port(), "example.test.", "SOA").answer, "SOA");
    return soa.empty() ? "" : soa.front();
  }

  static std::string update_key() { return std::string("hmac-sha256:update-key:") + kUpdateSecret; }

  std::string dir_;
  std::unique_ptr<CutoverServer> server_;
  int runs_ = 0;
};

TEST_F(UpdateTest, GoodKeysAddAndDeleteRecords) {
  auto added = nsupdate("update add new.example.test. 60 A 192.0.2.50\nupdate add new.example.test. 60 A 192.0.2.51\n",
                        update_key());
  ASSERT_EQ(added.exit_code, 0) << added.out << added.err;
  EXPECT_EQ(addresses("new.example.test."), (std::vector<std::string>{"192.0.2.50", "192.0.2.51"}));
  EXPECT_NE(serial().find(" 11 "), std::string::npos) << serial();

  auto deleted = nsupdate("update delete new.example.test. A 192.0.2.50\n",
                          std::string("hmac-sha512:big-key:") + kBigSecret);
  ASSERT_EQ(deleted.exit_code, 0) << deleted.out << deleted.err;
  EXPECT_EQ(addresses("new.example.test."), (std::vector<std::string>{"192.0.2.51"}));

  auto txt = nsupdate("update add note.example.test. 60 TXT \"hello\"\n", update_key());
  ASSERT_EQ(txt.exit_code, 0) << txt.out << txt.err;
  auto removed = nsupdate("update delete note.example.test.\n", update_key());  // the whole name
  ASSERT_EQ(removed.exit_code, 0) << removed.out << removed.err;
  EXPECT_EQ(dig(server_->port(), "note.example.test.", "TXT").status, "NXDOMAIN");
  EXPECT_TRUE(server_->wait_for_log("update.applied", 4));
}

TEST_F(UpdateTest, BadOrMissingKeyChangesNothing) {
  std::string before = serial();
  auto bad = nsupdate("update add evil.example.test. 60 A 192.0.2.66\n", std::string("hmac-sha256:update-key:") + kWrongSecret);
  EXPECT_NE(bad.exit_code, 0) << bad.out << bad.err;
  EXPECT_TRUE(server_->wait_for_log("reason=\"TSIG BADSIG\"")) << server_->log();

  auto unknown = nsupdate("update add evil.example.test. 60 A 192.0.2.66\n", std::string("hmac-sha256:stranger:") + kUpdateSecret);
  EXPECT_NE(unknown.exit_code, 0) << unknown.out << unknown.err;
  EXPECT_TRUE(server_->wait_for_log("reason=\"TSIG BADKEY\"")) << server_->log();

  auto transfer_only = nsupdate("update add evil.example.test. 60 A 192.0.2.66\n",
                                std::string("hmac-sha256:xfer-key:") + kTransferSecret);
  EXPECT_NE(transfer_only.exit_code, 0);
  EXPECT_NE((transfer_only.out + transfer_only.err).find("REFUSED"), std::string::npos) << transfer_only.out << transfer_only.err;

  auto unsigned_update = nsupdate("update add evil.example.test. 60 A 192.0.2.66\n", "");
  EXPECT_NE(unsigned_update.exit_code, 0);
  EXPECT_NE((unsigned_update.out + unsigned_update.err).find("REFUSED"), std::string::npos)
      << unsigned_update.out << unsigned_update.err;

  EXPECT_EQ(dig(server_->port(), "evil.example.test.", "A").status, "NXDOMAIN");
  EXPECT_EQ(serial(), before);
}

TEST_F(UpdateTest, FailingPrerequisiteForeignZoneAndFloorChangeNothing) {
  std::string before = serial();
  auto prerequisite = nsupdate("prereq nxdomain www.example.test.\nupdate add www2.example.test. 60 A 192.0.2.70\n",
                               update_key());
  EXPECT_NE(prerequisite.exit_code, 0);
  EXPECT_NE((prerequisite.out + prerequisite.err).find("YXDOMAIN"), std::string::npos) << prerequisite.out << prerequisite.err;
  EXPECT_EQ(dig(server_->port(), "www2.example.test.", "A").status, "NXDOMAIN");

  auto foreign = nsupdate("update add x.other.test. 60 A 192.0.2.71\n", update_key(), "other.test");
  EXPECT_NE(foreign.exit_code, 0);
  EXPECT_NE((foreign.out + foreign.err).find("NOTAUTH"), std::string::npos) << foreign.out << foreign.err;

  // The floor: www's only address, and all of two's addresses (which also removes the name).
  auto floor = nsupdate("update delete www.example.test. A 192.0.2.10\n", update_key());
  EXPECT_NE(floor.exit_code, 0);
  EXPECT_NE((floor.out + floor.err).find("REFUSED"), std::string::npos) << floor.out << floor.err;
  auto floor_name = nsupdate("update add two.example.test. 60 TXT \"x\"\nupdate delete two.example.test. A\n", update_key());
  EXPECT_NE(floor_name.exit_code, 0);
  EXPECT_TRUE(server_->wait_for_log("www.example.test")) << server_->log();
  EXPECT_EQ(addresses("www.example.test."), (std::vector<std::string>{"192.0.2.10"}));
  EXPECT_EQ(addresses("two.example.test.").size(), 2U);
  EXPECT_EQ(dig(server_->port(), "two.example.test.", "TXT").status, "NOERROR");  // nothing of it applied
  EXPECT_TRUE(dig(server_->port(), "two.example.test.", "TXT").answer.empty());
  EXPECT_EQ(serial(), before);
}

// RFC 2136 §3.4.2.2: nsupdate's SOA with a serial not above the zone's (9: lower; 10 +
// 2^31 + 1: lower in RFC 1982 arithmetic though larger as a number) is ignored, refresh and
// all; one with a greater serial replaces the SOA and its serial is served as sent.
TEST_F(UpdateTest, AnSoaUpdateNeedsAGreaterSerial) {
  std::string before = serial();
  for (const char* stale : {"9", "10", "2147483659"}) {
    auto ignored = nsupdate(std::string("update add example.test. 300 SOA ns1.example.test. admin.example.test. ") + stale +
                                " 7200 600 86400 60\n",
                            update_key());
    EXPECT_EQ(ignored.exit_code, 0) << stale << ignored.out << ignored.err;  // NOERROR: ignored, not refused
    EXPECT_EQ(serial(), before) << stale;
  }
  auto raised = nsupdate("update add example.test. 300 SOA ns1.example.test. admin.example.test. 40 7200 600 86400 60\n",
                         update_key());
  ASSERT_EQ(raised.exit_code, 0) << raised.out << raised.err;
  EXPECT_NE(serial().find(" 40 7200 "), std::string::npos) << serial();
}

// One datagram to the server and its reply (up to 5 s); empty when none came.
std::vector<std::uint8_t> udp_exchange(std::uint16_t port, const std::vector<std::uint8_t>& request) {
  int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return {};
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::vector<std::uint8_t> reply(4096);
  ::sendto(fd, request.data(), request.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to);
  pollfd waiting{fd, POLLIN, 0};
  ssize_t got = ::poll(&waiting, 1, 5000) == 1 ? ::recv(fd, reply.data(), reply.size(), 0) : -1;
  ::close(fd);
  reply.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  return reply;
}

TEST_F(UpdateTest, MalformedUpdateGetsFormerrAndTheServerKeepsServing) {
  // Opcode UPDATE, ZOCOUNT 1, then a zone name whose label runs past the end.
  std::vector<std::uint8_t> broken = {0xbe, 0xef, 0x28, 0x00, 0x00, 0x01, 0, 0, 0, 1, 0, 0, 0x3f, 'e', 'x'};
  auto reply = udp_exchange(server_->port(), broken);
  ASSERT_GE(reply.size(), 12U);
  EXPECT_EQ(reply[0], 0xbe);
  EXPECT_EQ(reply[1], 0xef);
  EXPECT_EQ(reply[2] & 0x80, 0x80);          // a response
  EXPECT_EQ((reply[2] >> 3) & 0x0f, 5);      // opcode UPDATE
  EXPECT_EQ(reply[3] & 0x0f, 1);             // FORMERR
  std::vector<std::uint8_t> two_zones = {0xbe, 0xf0, 0x28, 0x00, 0x00, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 1};
  auto second = udp_exchange(server_->port(), two_zones);
  ASSERT_GE(second.size(), 12U);
  EXPECT_EQ(second[3] & 0x0f, 1);
  EXPECT_TRUE(server_->running());
  EXPECT_EQ(addresses("www.example.test."), (std::vector<std::string>{"192.0.2.10"}));
}

TEST_F(UpdateTest, TransferKeyIsRequiredForAxfrAndSignsTheResponse) {
  // The harness's dig parser reads query answers, not transfer listings: count lines instead.
  auto signed_axfr = dig(server_->port(), "example.test.", "AXFR", {"-y", std::string("hmac-sha256:xfer-key:") + kTransferSecret});
  EXPECT_EQ(count_occurrences(signed_axfr.raw, "\tIN\tSOA\t"), 2U) << signed_axfr.raw;
  EXPECT_EQ(count_occurrences(signed_axfr.raw, "\tIN\tA\t"), 4U) << signed_axfr.raw;
  EXPECT_EQ(count_occurrences(signed_axfr.raw, "xfer-key.\t\t0\tANY\tTSIG\thmac-sha256."), 1U) << signed_axfr.raw;
  // dig checks every signed message and says so when one does not verify.
  EXPECT_EQ(signed_axfr.raw.find("verify"), std::string::npos) << signed_axfr.raw;
  EXPECT_EQ(signed_axfr.raw.find("failed"), std::string::npos) << signed_axfr.raw;

  auto plain = dig(server_->port(), "example.test.", "AXFR");
  EXPECT_EQ(count_occurrences(plain.raw, "\tIN\tSOA\t"), 0U) << plain.raw;
  EXPECT_NE(plain.raw.find("Transfer failed"), std::string::npos) << plain.raw;

  // The refusal says why in an Extended DNS Error (RFC 8914: 18 Prohibited).
  TcpClient client(server_->port());
  ASSERT_TRUE(client.connected());
  ASSERT_TRUE(client.send_framed({make_query(7, "example.test.", dns::RRType::AXFR)}));
  auto refused = client.receive();
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(static_cast<dns::Rcode>(refused->header.rcode), dns::Rcode::kRefused);
  ASSERT_TRUE(refused->edns.has_value());
  ASSERT_EQ(refused->edns->options.size(), 1u);
  const auto& ede = refused->edns->options.front();
  EXPECT_EQ(ede.code, 15);
  EXPECT_EQ(ede.data[0] << 8 | ede.data[1], 18);
  EXPECT_EQ(std::string(ede.data.begin() + 2, ede.data.end()), "transfer refused: unsigned: the zone's transfer-key is required");

  auto other_key = dig(server_->port(), "example.test.", "AXFR", {"-y", update_key()});
  EXPECT_EQ(count_occurrences(other_key.raw, "\tIN\tSOA\t"), 0U) << other_key.raw;
  EXPECT_TRUE(server_->wait_for_log("signed with a key other than the zone's transfer-key")) << server_->log();
}

TEST(UpdateWithoutJournal, IsRefused) {
  if (!have_program("nsupdate")) GTEST_SKIP() << "nsupdate not installed (bind9-dnsutils)";
  std::string dir = make_temp_dir("cutover-update-nojournal");
  write_file(dir + "/zone.db", kZone);
  write_file(dir + "/config.yaml", config_text(false));
  ServerSpec spec;
  spec.config = dir + "/config.yaml";
  CutoverServer server(spec);
  write_file(dir + "/commands", "server 127.0.0.1 " + std::to_string(server.port()) +
                                    "\nzone example.test\nupdate add new.example.test. 60 A 192.0.2.50\nsend\n");
  auto result = run_command({"nsupdate", "-t", "5", "-y", std::string("hmac-sha256:update-key:") + kUpdateSecret,
                             dir + "/commands"},
                            seconds(30));
  EXPECT_NE(result.exit_code, 0);
  EXPECT_NE((result.out + result.err).find("REFUSED"), std::string::npos) << result.out << result.err;
  EXPECT_EQ(dig(server.port(), "new.example.test.", "A").status, "NXDOMAIN");
}

}  // namespace
}  // namespace cutover::testing
