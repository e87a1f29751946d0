// The UPDATE sequence of external-dns's rfc2136 provider, sent with BIND's nsupdate: one
// message per batch, creates as RR additions (A plus its TXT ownership records, at the name
// and at the "a-" prefixed name of the newer TXT registry format), an update as "delete the
// old RR, add the new" in one message, a delete as RR deletions (class NONE, RFC 2136
// §2.5.4) of every record, no prerequisites. The last delete removes the name's only
// address: refused by the floor for a key without allow-empty, applied for the key that
// has it (allow-update: [{key: NAME, allow-empty: true}], docs/steering.md).
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/dig.h"
#include "support/process.h"
#include "support/server.h"

namespace cutover::testing {
namespace {

constexpr const char* kZone = R"($ORIGIN example.test.
$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
ns1 IN A 127.0.0.1
)";

// base64 of "external-dns-rfc2136-key-32bytes" and "operator-key-that-may-not-delete".
constexpr const char* kControllerSecret = "ZXh0ZXJuYWwtZG5zLXJmYzIxMzYta2V5LTMyYnl0ZXM=";
constexpr const char* kOperatorSecret = "b3BlcmF0b3Ita2V5LXRoYXQtbWF5LW5vdC1kZWxldGU=";

// What external-dns's TXT registry writes beside each record it owns.
constexpr const char* kOwnership = "\"heritage=external-dns,external-dns/owner=default,external-dns/resource=service/default/nginx\"";

class ExternalDnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!have_program("nsupdate") || !have_program("dig")) GTEST_SKIP() << "nsupdate or dig not installed (bind9-dnsutils)";
    dir_ = make_temp_dir("cutover-external-dns");
    write_file(dir_ + "/zone.db", kZone);
    write_file(dir_ + "/config.yaml",
               std::string("writes:\n  journal: journal.db\n  tsig-keys:\n") +
                   "    - {name: external-dns, algorithm: hmac-sha256, secret: \"" + kControllerSecret + "\"}\n" +
                   "    - {name: operator, algorithm: hmac-sha256, secret: \"" + kOperatorSecret + "\"}\n" +
                   "zones:\n  - origin: example.test\n    file: zone.db\n    allow-update:\n"
                   "      - operator\n      - {key: external-dns, allow-empty: true}\n");
    ServerSpec spec;
    spec.config = dir_ + "/config.yaml";
    server_ = std::make_unique<CutoverServer>(spec);
  }

  // One UPDATE message (one nsupdate `send`), signed with `key`.
  CommandResult send(const std::string& commands, const std::string& key) {
    return nsupdate(server_->port(), "example.test", commands, key, dir_ + "/batch." + std::to_string(++batches_));
  }

  std::vector<std::string> records(const std::string& name, const std::string& type) {
    return DigResult::rdatas(dig(server_->port(), name, type).answer, type);
  }

  static std::string controller() { return std::string("hmac-sha256:external-dns:") + kControllerSecret; }
  static std::string operator_key() { return std::string("hmac-sha256:operator:") + kOperatorSecret; }

  std::string dir_;
  std::unique_ptr<CutoverServer> server_;
  int batches_ = 0;
};

TEST_F(ExternalDnsTest, CreateReplaceAndDeleteAsTheRfc2136ProviderSendsThem) {
  // ApplyChanges, Create: every record of the batch as an addition.
  auto created = send(std::string("update add nginx.example.test. 300 A 192.0.2.80\n") +
                          "update add nginx.example.test. 300 TXT " + kOwnership + "\n" +
                          "update add a-nginx.example.test. 300 TXT " + kOwnership + "\n",
                      controller());
  ASSERT_EQ(created.exit_code, 0) << created.out << created.err;
  EXPECT_EQ(records("nginx.example.test.", "A"), std::vector<std::string>{"192.0.2.80"});
  EXPECT_EQ(records("a-nginx.example.test.", "TXT").size(), 1u);

  // UpdateOld/UpdateNew: RemoveRecord(old) then AddRecord(new) in one message, the TXT
  // records rewritten with the same value.
  auto replaced = send(std::string("update delete nginx.example.test. 300 A 192.0.2.80\n") +
                           "update delete nginx.example.test. 300 TXT " + kOwnership + "\n" +
                           "update add nginx.example.test. 300 A 192.0.2.81\n" +
                           "update add nginx.example.test. 300 TXT " + kOwnership + "\n",
                       controller());
  ASSERT_EQ(replaced.exit_code, 0) << replaced.out << replaced.err;
  EXPECT_EQ(records("nginx.example.test.", "A"), std::vector<std::string>{"192.0.2.81"});
  EXPECT_EQ(records("nginx.example.test.", "TXT").size(), 1u);

  const std::string remove = std::string("update delete nginx.example.test. 300 A 192.0.2.81\n") +
                             "update delete nginx.example.test. 300 TXT " + kOwnership + "\n" +
                             "update delete a-nginx.example.test. 300 TXT " + kOwnership + "\n";
  // The same Delete from a key without allow-empty: the floor refuses it, nothing changes.
  auto refused = send(remove, operator_key());
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE((refused.out + refused.err).find("REFUSED"), std::string::npos) << refused.out << refused.err;
  EXPECT_EQ(records("nginx.example.test.", "A"), std::vector<std::string>{"192.0.2.81"});
  EXPECT_EQ(records("a-nginx.example.test.", "TXT").size(), 1u);

  // Delete from the controller's key: every record goes, the names no longer exist.
  auto deleted = send(remove, controller());
  ASSERT_EQ(deleted.exit_code, 0) << deleted.out << deleted.err;
  EXPECT_EQ(dig(server_->port(), "nginx.example.test.", "A").status, "NXDOMAIN");
  EXPECT_EQ(dig(server_->port(), "a-nginx.example.test.", "TXT").status, "NXDOMAIN");
  EXPECT_TRUE(server_->wait_for_log("update.applied", 3)) << server_->log();
  EXPECT_TRUE(server_->wait_for_log("would leave")) << server_->log();  // the floor's reason, logged
}

}  // namespace
}  // namespace cutover::testing
