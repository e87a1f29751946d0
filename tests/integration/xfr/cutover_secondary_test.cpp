// cutover as a secondary: of a cutover primary (first AXFR into an empty zone, then NOTIFY +
// IXFR after a write), of real NSD and Knot primaries (NOTIFY after a zone file change),
// SOA EXPIRE turning answers into SERVFAIL until the primary is back, and a transfer over
// max-transfer-bytes aborted with the old copy still served, TSIG-signed pulls (primary-key)
// from a cutover and an NSD primary that require the key, a NOTIFY signed with that key acted
// on, and writes to a secondary refused.
#include <gtest/gtest.h>
#include <signal.h>

#include <iostream>

#include "xfr/xfr_peers.h"

namespace cutover::testing {
namespace {

std::unique_ptr<CutoverServer> start_secondary(const std::string& dir, std::uint16_t port, const std::string& config) {
  write_file(dir + "/secondary.yaml", config);
  return std::make_unique<CutoverServer>(ServerSpec{{}, dir + "/secondary.yaml", "example.test.", port, {}, {}});
}

constexpr const char* kTransferSecret = "Y3V0b3Zlci11cGRhdGUta2V5LTMyLWJ5dGVzLWxvbmc=";
constexpr const char* kOtherSecret = "d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldC13cm9uZyE=";

std::string key_config(const std::string& secret) {
  return fmt::format("writes:\n  tsig-keys:\n    - {{name: xfer-key, algorithm: hmac-sha256, secret: \"{}\"}}\n", secret);
}

TEST(CutoverSecondaryTest, FollowsACutoverPrimaryByAxfrThenIxfr) {
  std::string dir = make_temp_dir("cutover-secondary");
  std::uint16_t secondary_port = free_port();
  write_file(dir + "/zone.db", xfr_zone(10, "192.0.2.10"));
  write_file(dir + "/config.yaml", primary_config({secondary_port}));
  CutoverServer primary(ServerSpec{{}, dir + "/config.yaml", "example.test.", 0, {}, {}});
  ASSERT_TRUE(primary.wait_for_log("control.listen"));
  auto secondary = start_secondary(dir, secondary_port, secondary_config(primary.port()));

  ASSERT_TRUE(wait_until([&] { return serves_www(secondary_port, "192.0.2.10"); })) << secondary->log();
  EXPECT_EQ(serial_at(secondary_port), 10u);
  EXPECT_TRUE(secondary->wait_for_log("method=axfr"));

  ASSERT_EQ(set_www(primary.control_port(), "198.51.100.7").exit_code, 0);
  auto acknowledged = Clock::now();
  ASSERT_TRUE(wait_until([&] { return serves_www(secondary_port, "198.51.100.7"); })) << secondary->log();
  auto p_ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - acknowledged).count();
  std::cout << "[ P ] cutover secondary propagation ms: " << p_ms << '\n';
  EXPECT_EQ(serial_at(secondary_port), serial_at(primary.port()));
  EXPECT_TRUE(secondary->wait_for_log("xfr.notify_received"));
  EXPECT_TRUE(secondary->wait_for_log("method=ixfr "));
}

// A secondary's content is its primary's: the write API refuses to change it (409 naming
// the zone) and keeps serving the transferred copy; allow-update on it is a config error.
TEST(CutoverSecondaryTest, RefusesWritesToASecondaryZone) {
  std::string dir = make_temp_dir("cutover-secondary-readonly");
  write_file(dir + "/zone.db", xfr_zone(10, "192.0.2.10"));
  write_file(dir + "/config.yaml", primary_config({}));
  CutoverServer primary(ServerSpec{{}, dir + "/config.yaml", "example.test.", 0, {}, {}});
  std::filesystem::create_directories(dir + "/secondary");
  auto secondary = start_secondary(dir + "/secondary", free_port(),
                                   "control:\n  listen: 127.0.0.1:0\nwrites:\n  journal: journal.db\n" +
                                       secondary_config(primary.port()));
  ASSERT_TRUE(wait_until([&] { return serves_www(secondary->port(), "192.0.2.10"); })) << secondary->log();
  ASSERT_TRUE(secondary->wait_for_log("control.listen"));

  CommandResult refused = set_www(secondary->control_port(), "198.51.100.99");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE((refused.out + refused.err).find("is a secondary"), std::string::npos) << refused.out << refused.err;
  EXPECT_TRUE(serves_www(secondary->port(), "192.0.2.10"));
  EXPECT_EQ(serial_at(secondary->port()), 10u);

  std::filesystem::create_directories(dir + "/updatable");
  write_file(dir + "/updatable/secondary.yaml",
             key_config(kTransferSecret) + secondary_config(primary.port(), "    allow-update: [xfer-key]\n"));
  auto misconfigured = CutoverServer::launch(ServerSpec{{}, dir + "/updatable/secondary.yaml", "example.test.", 0, {}, {}});
  auto status = misconfigured->wait_for_exit(std::chrono::seconds(10));
  ASSERT_TRUE(status.has_value()) << misconfigured->log();
  EXPECT_NE(*status, 0);
  EXPECT_NE(misconfigured->log().find("allow-update on a secondary zone"), std::string::npos) << misconfigured->log();
}

TEST(CutoverSecondaryTest, ExpiredZoneAnswersServfailUntilThePrimaryIsBack) {
  std::string dir = make_temp_dir("cutover-secondary-expire");
  std::uint16_t primary_port = free_port();
  std::uint16_t secondary_port = free_port();
  // REFRESH 1, RETRY 1, EXPIRE 3 seconds.
  write_file(dir + "/zone.db", xfr_zone(10, "192.0.2.10", "1 1 3 60"));
  write_file(dir + "/config.yaml", primary_config({}));
  auto primary = std::make_unique<CutoverServer>(ServerSpec{{}, dir + "/config.yaml", "example.test.", primary_port, {}, {}});
  auto secondary = start_secondary(dir, secondary_port, secondary_config(primary_port));
  ASSERT_TRUE(wait_until([&] { return serves_www(secondary_port, "192.0.2.10"); })) << secondary->log();

  primary->stop();
  ASSERT_TRUE(wait_until([&] { return ask(secondary_port, "www.example.test.", dns::RRType::A).rcode == dns::Rcode::kServFail; },
                         std::chrono::seconds(10)))
      << secondary->log();
  EXPECT_TRUE(secondary->wait_for_log("secondary.expired"));

  primary = std::make_unique<CutoverServer>(ServerSpec{{}, dir + "/config.yaml", "example.test.", primary_port, {}, {}});
  EXPECT_TRUE(wait_until([&] { return serves_www(secondary_port, "192.0.2.10"); }, std::chrono::seconds(10)))
      << secondary->log();
  EXPECT_TRUE(secondary->wait_for_log("secondary.usable"));
}

TEST(CutoverSecondaryTest, OversizedTransferIsAbortedAndTheOldCopyServed) {
  std::string dir = make_temp_dir("cutover-secondary-oversized");
  std::string bulk;
  for (int i = 0; i < 50; ++i) bulk += fmt::format("txt{} IN TXT \"{}\"\n", i, std::string(100, 'x'));
  write_file(dir + "/zone.db", xfr_zone(10, "192.0.2.10", "3600 600 86400 60", bulk));
  write_file(dir + "/config.yaml", primary_config({}));
  CutoverServer primary(ServerSpec{{}, dir + "/config.yaml", "example.test.", 0, {}, {}});
  write_file(dir + "/old.db", xfr_zone(1, "192.0.2.1"));
  auto secondary = start_secondary(dir, free_port(), secondary_config(primary.port(), "    file: old.db\n    max-transfer-bytes: 2048\n"));
  ASSERT_TRUE(secondary->wait_for_log("max-transfer-bytes")) << secondary->log();
  EXPECT_TRUE(serves_www(secondary->port(), "192.0.2.1"));
  EXPECT_EQ(serial_at(secondary->port()), 1u);
  EXPECT_EQ(count_occurrences(secondary->log(), "secondary.transferred"), 0u);
}

// A real primary: its zone file changes, it is told to reload, it sends NOTIFY, and the
// cutover secondary pulls (IXFR, or the whole zone when the primary answers that way).
void follow_real_primary(const char* program, const char* name,
                         std::vector<std::string> (*command)(const std::string&, std::uint16_t, std::uint16_t, std::uint16_t)) {
  if (!have_program(program)) GTEST_SKIP() << program << " is not installed";
  std::string dir = make_temp_dir(std::string("cutover-secondary-of-") + name);
  std::uint16_t primary_port = free_port();
  std::uint16_t secondary_port = free_port();
  std::filesystem::create_directories(dir + "/peer");
  write_file(dir + "/peer/zone.db", xfr_zone(10, "192.0.2.10"));
  ChildProcess primary(command(dir + "/peer", primary_port, 0, secondary_port), dir + "/peer/out.log");
  ASSERT_TRUE(wait_until([&] { return serial_at(primary_port) == 10u; })) << primary.log();
  auto secondary = start_secondary(dir, secondary_port, secondary_config(primary_port));
  ASSERT_TRUE(wait_until([&] { return serves_www(secondary_port, "192.0.2.10"); })) << secondary->log();

  write_file(dir + "/peer/zone.db", xfr_zone(11, "198.51.100.11"));
  primary.signal(SIGHUP);
  auto changed = Clock::now();
  ASSERT_TRUE(wait_until([&] { return serves_www(secondary_port, "198.51.100.11"); }))
      << secondary->log() << "\n" << name << " log:\n" << primary.log();
  std::cout << "[ P ] cutover secondary of " << name << ", ms from SIGHUP: "
            << std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - changed).count() << '\n';
  EXPECT_EQ(serial_at(secondary_port), 11u);
  EXPECT_TRUE(secondary->wait_for_log("xfr.notify_received"));
  primary.stop();
}

TEST(CutoverSecondaryTest, FollowsAnNsdPrimary) { follow_real_primary("nsd", "nsd", nsd_command); }

// primary-key: the secondary signs its transfer requests and verifies every reply; a
// primary that requires the key (transfer-key) serves it, and a wrong secret gets nothing.
TEST(CutoverSecondaryTest, PullsWithTsigAndAWrongKeyGetsNothing) {
  std::string dir = make_temp_dir("cutover-secondary-tsig");
  write_file(dir + "/zone.db", xfr_zone(10, "192.0.2.10"));
  write_file(dir + "/config.yaml",
             fmt::format("{}  journal: journal.db\nzones:\n  - origin: example.test\n    file: zone.db\n"
                         "    allow-transfer: [127.0.0.1]\n    transfer-key: xfer-key\n",
                         key_config(kTransferSecret)));
  CutoverServer primary(ServerSpec{{}, dir + "/config.yaml", "example.test.", 0, {}, {}});
  std::string pulls = "    primary-key: xfer-key\n";

  std::filesystem::create_directories(dir + "/good");
  auto good = start_secondary(dir + "/good", free_port(), key_config(kTransferSecret) + secondary_config(primary.port(), pulls));
  ASSERT_TRUE(wait_until([&] { return serves_www(good->port(), "192.0.2.10"); })) << good->log();
  EXPECT_TRUE(good->wait_for_log("method=axfr"));

  std::filesystem::create_directories(dir + "/wrong");
  auto wrong = start_secondary(dir + "/wrong", free_port(), key_config(kOtherSecret) + secondary_config(primary.port(), pulls));
  ASSERT_TRUE(wrong->wait_for_log("secondary.refresh_failed")) << wrong->log();
  EXPECT_NE(wrong->log().find("BADSIG"), std::string::npos) << wrong->log();
  EXPECT_EQ(ask(wrong->port(), "www.example.test.", dns::RRType::A).rcode, dns::Rcode::kServFail);
  EXPECT_EQ(count_occurrences(wrong->log(), "secondary.transferred"), 0u);
}

// A primary with a transfer-key signs the NOTIFY it sends with it, so a secondary that pulls
// with that key (and so only acts on NOTIFYs signed with it) follows a write at once, long
// before the SOA refresh of an hour would bring it.
TEST(CutoverSecondaryTest, FollowsASignedNotifyFromItsPrimary) {
  std::string dir = make_temp_dir("cutover-secondary-signed-notify");
  std::uint16_t secondary_port = free_port();
  write_file(dir + "/zone.db", xfr_zone(10, "192.0.2.10"));
  write_file(dir + "/config.yaml",
             fmt::format("control:\n  listen: 127.0.0.1:0\n{}  journal: journal.db\nzones:\n"
                         "  - origin: example.test\n    file: zone.db\n    allow-transfer: [127.0.0.1]\n"
                         "    transfer-key: xfer-key\n    notify: [127.0.0.1:{}]\n",
                         key_config(kTransferSecret), secondary_port));
  CutoverServer primary(ServerSpec{{}, dir + "/config.yaml", "example.test.", 0, {}, {}});
  ASSERT_TRUE(primary.wait_for_log("control.listen"));
  std::filesystem::create_directories(dir + "/secondary");
  auto secondary = start_secondary(dir + "/secondary", secondary_port,
                                   key_config(kTransferSecret) + secondary_config(primary.port(), "    primary-key: xfer-key\n"));
  ASSERT_TRUE(wait_until([&] { return serves_www(secondary_port, "192.0.2.10"); })) << secondary->log();

  ASSERT_EQ(set_www(primary.control_port(), "198.51.100.9").exit_code, 0);
  ASSERT_TRUE(wait_until([&] { return serves_www(secondary_port, "198.51.100.9"); })) << secondary->log();
  EXPECT_TRUE(secondary->wait_for_log("xfr.notify_received")) << secondary->log();
  EXPECT_EQ(count_occurrences(secondary->log(), "xfr.notify_refused"), 0u) << secondary->log();
  EXPECT_TRUE(primary.wait_for_log("xfr.notify_sent")) << primary.log();
}

// The same against an independent TSIG implementation: NSD provides the zone only to the key.
TEST(CutoverSecondaryTest, PullsFromAnNsdPrimaryThatRequiresTheKey) {
  if (!have_program("nsd")) GTEST_SKIP() << "nsd is not installed";
  std::string dir = make_temp_dir("cutover-secondary-tsig-nsd");
  std::filesystem::create_directories(dir + "/peer");
  write_file(dir + "/peer/zone.db", xfr_zone(10, "192.0.2.10"));
  std::uint16_t primary_port = free_port();
  nsd_command(dir + "/peer", primary_port, 0, free_port());
  std::string conf = read_file(dir + "/peer/nsd.conf");
  auto at = conf.find("  provide-xfr: 127.0.0.1 NOKEY");
  ASSERT_NE(at, std::string::npos);
  conf.replace(at, std::string("  provide-xfr: 127.0.0.1 NOKEY").size(), "  provide-xfr: 127.0.0.1 xfer-key");
  conf += fmt::format("key:\n  name: xfer-key\n  algorithm: hmac-sha256\n  secret: \"{}\"\n", kTransferSecret);
  write_file(dir + "/peer/nsd.conf", conf);
  ChildProcess primary({"nsd", "-d", "-c", dir + "/peer/nsd.conf"}, dir + "/peer/out.log");
  ASSERT_TRUE(wait_until([&] { return serial_at(primary_port) == 10u; })) << primary.log();
  auto secondary = start_secondary(dir, free_port(), key_config(kTransferSecret) + secondary_config(primary_port, "    primary-key: xfer-key\n"));
  EXPECT_TRUE(wait_until([&] { return serves_www(secondary->port(), "192.0.2.10"); })) << secondary->log() << primary.log();
  primary.stop();
}

TEST(CutoverSecondaryTest, FollowsAKnotPrimary) { follow_real_primary("knotd", "knot", knot_command); }

}  // namespace
}  // namespace cutover::testing
