// Views with the real binary and real dig: the client's source address (dig -b 127.0.0.x),
// a trusted resolver's Client Subnet (dig +subnet) with the scope echoed, a TSIG key (dig -y,
// the answer signed and checked by dig), a write to a default zone reaching the view that
// does not replace it (nsupdate), writes to a view's own zone (nsupdate with the view's key,
// the CLI with --view) that survive a restart and a reload, a secondary of a view's copy that
// follows it by NOTIFY and IXFR (a second cutover pulling with the view's key), and a reload that replaces a
// view's zone or keeps the old data when the new one does not load. Loopback only; bounded waits.
#include <algorithm>
#include <filesystem>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/dig.h"
#include "support/process.h"
#include "support/server.h"

namespace cutover::testing {
namespace {

using ::testing::HasSubstr;

constexpr const char* kViewSecret = "dmlldy1rZXktc2VjcmV0LWZvci10ZXN0cw==";
constexpr const char* kUpdateSecret = "dXBkYXRlLWtleS1zZWNyZXQtZm9yLXRlc3Rz";

std::string example_zone(int serial, const std::string& www) {
  return fmt::format(
      "$ORIGIN example.test.\n$TTL 60\n@ IN SOA ns1 hostmaster {} 3600 600 86400 60\n@ IN NS ns1\n"
      "ns1 IN A 192.0.2.53\nwww IN A {}\n",
      serial, www);
}

class Views : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_program("dig") || !have_program("nsupdate")) GTEST_SKIP() << "dig or nsupdate not installed";
    dir_ = make_temp_dir("cutover-views");
    write_file(dir_ + "/external.zone", example_zone(1, "192.0.2.10"));
    write_file(dir_ + "/internal.zone", example_zone(1, "10.0.0.10"));
    write_file(dir_ + "/partner.zone", example_zone(1, "198.51.100.10"));
    write_file(dir_ + "/other.zone",
               "$ORIGIN other.test.\n$TTL 60\n@ IN SOA ns1 hostmaster 1 3600 600 86400 60\n@ IN NS ns1\n"
               "ns1 IN A 192.0.2.54\n");
    write_file(dir_ + "/cutover.yaml",
               fmt::format("log: {{queries: true}}\n"
                           "control: {{listen: \"127.0.0.1:0\"}}\n"
                           "client-subnet: {{trust: 127.0.0.1}}\n"
                           "writes:\n  journal: journal.sqlite\n  tsig-keys:\n"
                           "    - {{name: partner-key, algorithm: hmac-sha256, secret: {}}}\n"
                           "    - {{name: update-key, algorithm: hmac-sha256, secret: {}}}\n"
                           "zones:\n"
                           "  - {{origin: example.test., file: external.zone, allow-transfer: [127.0.0.0/8]}}\n"
                           "  - {{origin: other.test., file: other.zone, allow-update: [update-key]}}\n"
                           "views:\n"
                           "  - name: internal\n    match-clients: [127.0.0.2, 10.0.0.0/8]\n    ecs: true\n"
                           "    zones: [{{origin: example.test., file: internal.zone}}]\n"
                           "  - name: partner\n    match-keys: [partner-key]\n"
                           "    zones: [{{origin: example.test., file: partner.zone, allow-update: [partner-key]}}]\n"
                           // Answered in the default view and the partner's; internal clients get zone data.
                           "pools:\n  app:\n    name: app.example.test\n    shape: all-healthy\n"
                           "    views: [default, partner]\n"
                           "    check: {{type: tcp, port: 9, interval: 1s, timeout: 200ms}}\n"
                           "    endpoints: [{{address: 203.0.113.10}}, {{address: 203.0.113.11}}]\n"
                           // The same name for internal clients: another pool, their own endpoints.
                           "  app-internal:\n    name: app.example.test\n    views: [internal]\n"
                           "    check: {{type: tcp, port: 9, interval: 1s, timeout: 200ms}}\n"
                           "    endpoints: [{{address: 10.0.0.20}}]\n",
                           kViewSecret, kUpdateSecret));
    spec_.config = dir_ + "/cutover.yaml";
    spec_.probe_name = "example.test.";
    server_ = std::make_unique<CutoverServer>(spec_);
  }

  void restart() {
    ASSERT_EQ(server_->stop(), 0) << server_->log();
    server_ = std::make_unique<CutoverServer>(spec_);
  }

  // `cutover ARGS... --control` against this server.
  CommandResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), CUTOVER_BINARY);
    args.insert(args.end(), {"--control", "127.0.0.1:" + std::to_string(server_->control_port())});
    return run_command(args, std::chrono::seconds(20));
  }

  std::vector<std::string> www(std::vector<std::string> extra = {}) {
    return DigResult::rdatas(dig(server_->port(), "www.example.test", "A", std::move(extra)).answer, "A");
  }

  std::string dir_;
  ServerSpec spec_;
  std::unique_ptr<CutoverServer> server_;
};

const std::string kPartnerKey = std::string("hmac-sha256:partner-key:") + kViewSecret;

TEST_F(Views, TheSourceAddressPicksTheView) {
  EXPECT_EQ(www(), std::vector<std::string>{"192.0.2.10"});  // 127.0.0.1: no view
  EXPECT_EQ(www({"-b", "127.0.0.2"}), std::vector<std::string>{"10.0.0.10"});
  EXPECT_EQ(www({"-b", "127.0.0.3"}), std::vector<std::string>{"192.0.2.10"});
  // Over TCP too, and a zone the view does not replace is the default's.
  EXPECT_EQ(www({"-b", "127.0.0.2", "+tcp"}), std::vector<std::string>{"10.0.0.10"});
  DigResult other = dig(server_->port(), "ns1.other.test", "A", {"-b", "127.0.0.2"});
  EXPECT_EQ(DigResult::rdatas(other.answer, "A"), std::vector<std::string>{"192.0.2.54"});
  // Negative answers come from the view's zone: its SOA.
  DigResult nx = dig(server_->port(), "nothing.example.test", "A", {"-b", "127.0.0.2"});
  EXPECT_EQ(nx.status, "NXDOMAIN");
  EXPECT_TRUE(server_->wait_for_log("view=internal")) << server_->log();
}

TEST_F(Views, ATrustedResolversSubnetPicksTheViewAndTheScopeIsEchoed) {
  DigResult inside = dig(server_->port(), "www.example.test", "A", {"+subnet=10.20.30.0/24"});
  EXPECT_EQ(DigResult::rdatas(inside.answer, "A"), std::vector<std::string>{"10.0.0.10"});
  EXPECT_THAT(inside.raw, HasSubstr("CLIENT-SUBNET: 10.20.30.0/24/8"));  // all of 10/8 is internal
  DigResult outside = dig(server_->port(), "www.example.test", "A", {"+subnet=192.0.2.0/24"});
  EXPECT_EQ(DigResult::rdatas(outside.answer, "A"), std::vector<std::string>{"192.0.2.10"});
  // 192/8 differs from 10/8 and 127.0.0.2 in the first bit already.
  EXPECT_THAT(outside.raw, HasSubstr("CLIENT-SUBNET: 192.0.2.0/24/1"));
  // An untrusted sender's subnet is ignored: 127.0.0.3 is answered as itself, without an echo.
  DigResult untrusted = dig(server_->port(), "www.example.test", "A", {"-b", "127.0.0.3", "+subnet=10.20.30.0/24"});
  EXPECT_EQ(DigResult::rdatas(untrusted.answer, "A"), std::vector<std::string>{"192.0.2.10"});
  EXPECT_THAT(untrusted.raw, ::testing::Not(HasSubstr("CLIENT-SUBNET")));
}

TEST_F(Views, AQuerySignedWithAViewsKeyIsAnsweredThereAndSigned) {
  const std::string key = std::string("hmac-sha256:partner-key:") + kViewSecret;
  for (const char* transport : {"+notcp", "+tcp"}) {
    DigResult signed_query = dig(server_->port(), "www.example.test", "A", {"-y", key, transport});
    EXPECT_EQ(DigResult::rdatas(signed_query.answer, "A"), std::vector<std::string>{"198.51.100.10"}) << transport;
    // dig checks the response's TSIG and says so when it cannot.
    EXPECT_THAT(signed_query.raw, HasSubstr("TSIG PSEUDOSECTION")) << signed_query.raw;
    EXPECT_THAT(signed_query.raw, ::testing::Not(HasSubstr("could not be validated"))) << signed_query.raw;
    EXPECT_THAT(signed_query.raw, ::testing::Not(HasSubstr("Couldn't verify"))) << signed_query.raw;
  }
  // A key the view does not list: answered by address (the default here), still signed.
  DigResult other_key =
      dig(server_->port(), "www.example.test", "A", {"-y", std::string("hmac-sha256:update-key:") + kUpdateSecret});
  EXPECT_EQ(DigResult::rdatas(other_key.answer, "A"), std::vector<std::string>{"192.0.2.10"});
  EXPECT_THAT(other_key.raw, ::testing::Not(HasSubstr("could not be validated"))) << other_key.raw;
  // A wrong secret: NOTAUTH with BADSIG (RFC 8945 §5.3.2), no data.
  DigResult forged = dig(server_->port(), "www.example.test", "A",
                         {"-y", "hmac-sha256:partner-key:d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA=="});
  EXPECT_EQ(forged.status, "NOTAUTH") << forged.raw;
  EXPECT_THAT(forged.raw, HasSubstr("BADSIG"));
  EXPECT_TRUE(forged.answer.empty());
}

TEST_F(Views, ATransferSignedWithAViewsKeyIsOfTheViewsZone) {
  const std::string key = std::string("hmac-sha256:partner-key:") + kViewSecret;
  // dig prints a transfer's records without sections: read its text.
  DigResult view = dig(server_->port(), "example.test", "AXFR", {"-y", key});
  EXPECT_THAT(view.raw, HasSubstr("198.51.100.10")) << view.raw;
  EXPECT_THAT(view.raw, ::testing::Not(HasSubstr("192.0.2.10"))) << view.raw;
  EXPECT_THAT(view.raw, ::testing::Not(HasSubstr("could not be validated"))) << view.raw;
  EXPECT_THAT(view.raw, ::testing::Not(HasSubstr("failed"))) << view.raw;
  // IXFR of the view's own zone: the whole zone (the journal keeps the default zones' history).
  DigResult ixfr = dig(server_->port(), "example.test", "IXFR=0", {"-y", key, "+tcp"});
  EXPECT_THAT(ixfr.raw, HasSubstr("198.51.100.10")) << ixfr.raw;
  DigResult plain = dig(server_->port(), "example.test", "AXFR");
  EXPECT_THAT(plain.raw, HasSubstr("192.0.2.10")) << plain.raw;
  EXPECT_THAT(plain.raw, ::testing::Not(HasSubstr("198.51.100.10"))) << plain.raw;
  EXPECT_TRUE(server_->wait_for_log("xfr.axfr zone=example.test. view=partner")) << server_->log();
}

TEST_F(Views, PoolsLimitedToViewsShareANameAcrossViews) {
  // Whether its endpoints pass their checks or not, the pool answers both (all-healthy, then
  // fail-open): the test is where it answers, not what.
  const std::vector<std::string> pool{"203.0.113.10", "203.0.113.11"};
  auto sorted = [](std::vector<std::string> rdatas) {  // the pool answers in cyclic order
    std::sort(rdatas.begin(), rdatas.end());
    return rdatas;
  };
  DigResult public_view = dig(server_->port(), "app.example.test", "A");
  EXPECT_EQ(sorted(DigResult::rdatas(public_view.answer, "A")), pool) << public_view.raw;
  DigResult partner = dig(server_->port(), "app.example.test", "A", {"-y", std::string("hmac-sha256:partner-key:") + kViewSecret});
  EXPECT_EQ(sorted(DigResult::rdatas(partner.answer, "A")), pool) << partner.raw;
  // The internal view meets the other pool of that name, over UDP and TCP.
  for (const char* transport : {"+notcp", "+tcp"}) {
    DigResult internal = dig(server_->port(), "app.example.test", "A", {"-b", "127.0.0.2", transport});
    EXPECT_EQ(DigResult::rdatas(internal.answer, "A"), std::vector<std::string>{"10.0.0.20"}) << internal.raw;
  }
  // A name with no pool in the view is its zone data: NXDOMAIN in the internal zone.
  DigResult other = dig(server_->port(), "nothing.example.test", "A", {"-b", "127.0.0.2"});
  EXPECT_EQ(other.status, "NXDOMAIN") << other.raw;
}

TEST_F(Views, AWriteToADefaultZoneReachesTheViewsThatShareIt) {
  CommandResult update = nsupdate(server_->port(), "other.test", "update add new.other.test. 60 A 192.0.2.77\n",
                                  std::string("hmac-sha256:update-key:") + kUpdateSecret, dir_ + "/update.txt");
  ASSERT_EQ(update.exit_code, 0) << update.out << update.err;
  for (const char* source : {"127.0.0.1", "127.0.0.2"}) {
    DigResult added = dig(server_->port(), "new.other.test", "A", {"-b", source});
    EXPECT_EQ(DigResult::rdatas(added.answer, "A"), std::vector<std::string>{"192.0.2.77"}) << source;
  }
  // The view's own zone is untouched by it.
  EXPECT_EQ(www({"-b", "127.0.0.2"}), std::vector<std::string>{"10.0.0.10"});
}

TEST_F(Views, AnUpdateSignedWithAViewsKeyWritesTheViewsOwnCopyAndSurvivesARestart) {
  CommandResult update = nsupdate(server_->port(), "example.test", "update add new.example.test. 60 A 198.51.100.77\n",
                                  kPartnerKey, dir_ + "/update.txt");
  ASSERT_EQ(update.exit_code, 0) << update.out << update.err << server_->log();
  auto partner_new = [&] {
    return DigResult::rdatas(dig(server_->port(), "new.example.test", "A", {"-y", kPartnerKey}).answer, "A");
  };
  EXPECT_EQ(partner_new(), std::vector<std::string>{"198.51.100.77"});
  // Only the partner view's copy changed: the top-level zone and the internal view's do not have it.
  EXPECT_EQ(dig(server_->port(), "new.example.test", "A").status, "NXDOMAIN");
  EXPECT_EQ(dig(server_->port(), "new.example.test", "A", {"-b", "127.0.0.2"}).status, "NXDOMAIN");
  DigResult soa = dig(server_->port(), "example.test", "SOA", {"-y", kPartnerKey});
  ASSERT_EQ(soa.answer.size(), 1u) << soa.raw;
  EXPECT_THAT(soa.answer[0].rdata, HasSubstr(" 2 3600 600"));  // the view's serial moved, RFC 1982
  EXPECT_THAT(dig(server_->port(), "example.test", "SOA").answer.at(0).rdata, HasSubstr(" 1 3600 600"));
  EXPECT_TRUE(server_->wait_for_log("update.applied zone=\"example.test. view partner\"")) << server_->log();

  // A key that picks no view addresses the top-level zone, which allows no updates.
  CommandResult other = nsupdate(server_->port(), "example.test", "update add x.example.test. 60 A 192.0.2.1\n",
                                 std::string("hmac-sha256:update-key:") + kUpdateSecret, dir_ + "/other.txt");
  EXPECT_NE(other.exit_code, 0) << other.out;
  EXPECT_THAT(other.out + other.err, HasSubstr("REFUSED"));

  // The journal keeps the view's write apart from the top-level zone's history.
  restart();
  EXPECT_EQ(partner_new(), std::vector<std::string>{"198.51.100.77"});
  EXPECT_EQ(dig(server_->port(), "new.example.test", "A").status, "NXDOMAIN");
  EXPECT_TRUE(server_->wait_for_log("journal.replayed zone=\"example.test. view partner\" entries=1")) << server_->log();
}

TEST_F(Views, TheWriteApiAndTheCliAddressAViewsZoneWithView) {
  const std::vector<std::string> partner_www{"-y", kPartnerKey};
  CommandResult set = cli({"set", "example.test", "www", "A", "198.51.100.20", "--view", "partner"});
  ASSERT_EQ(set.exit_code, 0) << set.out << set.err << server_->log();
  EXPECT_EQ(www(partner_www), std::vector<std::string>{"198.51.100.20"});
  EXPECT_EQ(www(), std::vector<std::string>{"192.0.2.10"});
  EXPECT_EQ(www({"-b", "127.0.0.2"}), std::vector<std::string>{"10.0.0.10"});

  CommandResult get = cli({"get", "example.test", "www", "A", "--view", "partner", "--json"});
  ASSERT_EQ(get.exit_code, 0) << get.out << get.err;
  nlohmann::json records = nlohmann::json::parse(get.out, nullptr, false);
  ASSERT_TRUE(records.is_object()) << get.out;
  EXPECT_EQ(records["view"], "partner");
  ASSERT_EQ(records["records"].size(), 1u) << get.out;
  EXPECT_EQ(records["records"][0]["data"], "198.51.100.20");
  CommandResult top = cli({"get", "example.test", "www", "A", "--json"});
  EXPECT_THAT(top.out, HasSubstr("192.0.2.10"));
  EXPECT_THAT(top.out, ::testing::Not(HasSubstr("198.51.100.20")));

  CommandResult history = cli({"history", "example.test", "--view", "partner"});
  ASSERT_EQ(history.exit_code, 0) << history.err;
  EXPECT_THAT(history.out, HasSubstr("who=cli"));
  EXPECT_THAT(history.out, HasSubstr("+ www.example.test. 300 A 198.51.100.20")) << history.out;
  // The console's zones panel lists the view's copy beside the top-level zone, with its writes.
  httplib::Client console("127.0.0.1", server_->control_port());
  auto panels = console.Get("/console/panels");
  ASSERT_TRUE(panels && panels->status == 200);
  nlohmann::json doc = nlohmann::json::parse(panels->body, nullptr, false);
  bool listed = false;
  for (const auto& zone : doc["panels"]["zones"]["data"]["zones"]) {
    if (zone.value("view", "") != "partner") continue;
    listed = true;
    EXPECT_EQ(zone["zone"], "example.test.");
    EXPECT_EQ(zone["version"], 1);
    ASSERT_EQ(zone["writes"].size(), 1u) << zone.dump();
    EXPECT_EQ(zone["writes"][0]["who"], "cli");
  }
  EXPECT_TRUE(listed) << panels->body;

  CommandResult undo = cli({"undo", "example.test", "--to", "0", "--view", "partner"});
  ASSERT_EQ(undo.exit_code, 0) << undo.out << undo.err;
  EXPECT_EQ(www(partner_www), std::vector<std::string>{"198.51.100.10"});

  // A view with no zones of its own here, and one that does not exist: 404, exit 2.
  CommandResult unknown = cli({"get", "example.test", "--view", "nosuch"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("no view nosuch"));
  // The internal view's copy is written by the API too (the control token guards it, not a TSIG key).
  CommandResult internal = cli({"set", "example.test", "www", "A", "10.0.0.99", "--view", "internal"});
  ASSERT_EQ(internal.exit_code, 0) << internal.out << internal.err;
  EXPECT_EQ(www({"-b", "127.0.0.2"}), std::vector<std::string>{"10.0.0.99"});
  EXPECT_EQ(www(partner_www), std::vector<std::string>{"198.51.100.10"});
}

TEST_F(Views, AReloadOfAViewsFileKeepsWhatWasWrittenToIt) {
  CommandResult update = nsupdate(server_->port(), "example.test", "update add new.example.test. 60 A 198.51.100.77\n",
                                  kPartnerKey, dir_ + "/update.txt");
  ASSERT_EQ(update.exit_code, 0) << update.out << update.err;
  write_file(dir_ + "/partner.zone", example_zone(5, "198.51.100.11"));
  server_->reload();
  ASSERT_TRUE(server_->wait_for_log("reload.ok")) << server_->log();
  EXPECT_EQ(www({"-y", kPartnerKey}), std::vector<std::string>{"198.51.100.11"});
  EXPECT_EQ(DigResult::rdatas(dig(server_->port(), "new.example.test", "A", {"-y", kPartnerKey}).answer, "A"),
            std::vector<std::string>{"198.51.100.77"});
  EXPECT_EQ(www(), std::vector<std::string>{"192.0.2.10"});
}

// A view's own zone has its own NOTIFY list and its history in the journal: a cutover
// secondary that pulls with the view's key gets the view's copy, is told of a write to it at
// once (NOTIFY signed with that key) and follows by IXFR from the view's journal streams.
TEST(ViewSecondary, FollowsAViewsCopyByNotifyAndIxfr) {
  if (!have_program("dig") || !have_program("nsupdate")) GTEST_SKIP() << "dig or nsupdate not installed";
  std::string dir = make_temp_dir("cutover-view-secondary");
  std::uint16_t secondary_port = free_port();
  write_file(dir + "/public.zone", example_zone(1, "192.0.2.10"));
  write_file(dir + "/partner.zone", example_zone(1, "198.51.100.10"));
  const std::string keys = fmt::format("  tsig-keys:\n    - {{name: partner-key, algorithm: hmac-sha256, secret: {}}}\n",
                                       kViewSecret);
  write_file(dir + "/primary.yaml",
             "writes:\n  journal: journal.sqlite\n" + keys +
                 "zones: [{origin: example.test., file: public.zone}]\n"
                 "views:\n  - name: partner\n    match-keys: [partner-key]\n    zones:\n"
                 "      - {origin: example.test., file: partner.zone, allow-update: [partner-key],\n"
                 "         allow-transfer: [127.0.0.1], notify: [\"127.0.0.1:" +
                 std::to_string(secondary_port) + "\"]}\n");
  ServerSpec primary_spec;
  primary_spec.config = dir + "/primary.yaml";
  primary_spec.probe_name = "example.test.";
  CutoverServer primary(primary_spec);
  std::filesystem::create_directories(dir + "/secondary");
  write_file(dir + "/secondary/secondary.yaml",
             "writes:\n" + keys +
                 fmt::format("zones:\n  - {{origin: example.test., primary: \"127.0.0.1:{}\", primary-key: partner-key}}\n",
                             primary.port()));
  ServerSpec secondary_spec;
  secondary_spec.config = dir + "/secondary/secondary.yaml";
  secondary_spec.probe_name = "example.test.";
  secondary_spec.port = secondary_port;
  CutoverServer secondary(secondary_spec);
  auto www_at = [](std::uint16_t port, const char* name) {
    return DigResult::rdatas(dig(port, name, "A").answer, "A");
  };
  auto deadline_for = [](auto&& condition) {
    for (int i = 0; i < 100; ++i) {  // 10 s at most
      if (condition()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  };
  ASSERT_TRUE(deadline_for([&] { return www_at(secondary_port, "www.example.test") == std::vector<std::string>{"198.51.100.10"}; }))
      << secondary.log() << primary.log();

  CommandResult update = nsupdate(primary.port(), "example.test", "update add new.example.test. 60 A 198.51.100.77\n",
                                  kPartnerKey, dir + "/update.txt");
  ASSERT_EQ(update.exit_code, 0) << update.out << update.err << primary.log();
  ASSERT_TRUE(deadline_for([&] { return www_at(secondary_port, "new.example.test") == std::vector<std::string>{"198.51.100.77"}; }))
      << secondary.log() << primary.log();
  EXPECT_TRUE(secondary.wait_for_log("xfr.notify_received")) << secondary.log();
  EXPECT_TRUE(primary.wait_for_log("xfr.notify_sent zone=\"example.test. view partner\"")) << primary.log();
  EXPECT_TRUE(primary.wait_for_log("xfr.ixfr zone=example.test. view=partner")) << primary.log();
  // The top-level copy was never the secondary's.
  EXPECT_EQ(www_at(primary.port(), "www.example.test"), std::vector<std::string>{"192.0.2.10"});
}

TEST_F(Views, ReloadSwapsAViewsZoneOrKeepsTheOldOneWhenTheNewDoesNotLoad) {
  write_file(dir_ + "/internal.zone", example_zone(2, "10.0.0.11"));
  server_->reload();
  ASSERT_TRUE(server_->wait_for_log("reload.ok")) << server_->log();
  EXPECT_EQ(www({"-b", "127.0.0.2"}), std::vector<std::string>{"10.0.0.11"});
  EXPECT_EQ(www(), std::vector<std::string>{"192.0.2.10"});

  write_file(dir_ + "/internal.zone", example_zone(3, "10.0.0.12") + "broken IN A 300.1.2.3\n");
  server_->reload();
  ASSERT_TRUE(server_->wait_for_log("reload.failed")) << server_->log();
  EXPECT_THAT(server_->log(), HasSubstr("internal.zone:7:13: error: bad A rdata"));  // file, line, column
  EXPECT_THAT(server_->log(), HasSubstr("view.failed view=internal"));
  EXPECT_EQ(www({"-b", "127.0.0.2"}), std::vector<std::string>{"10.0.0.11"});
  EXPECT_EQ(www(), std::vector<std::string>{"192.0.2.10"});
}

TEST_F(Views, AConfigWithABadViewDoesNotStartAndNamesThePlace) {
  write_file(dir_ + "/bad.yaml",
             "zones: [{origin: example.test., file: external.zone}]\n"
             "views:\n  - {name: lab, match-clients: [10.0.0.0/33], zones: [{origin: example.test., file: x}]}\n");
  CommandResult run = run_command({CUTOVER_BINARY, "serve", "--config", dir_ + "/bad.yaml"}, std::chrono::seconds(10));
  EXPECT_NE(run.exit_code, 0);
  EXPECT_THAT(run.err, HasSubstr("bad.yaml:3:33: views[0].match-clients[0]:")) << run.err;
}

}  // namespace
}  // namespace cutover::testing
