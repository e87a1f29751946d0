// `cutover dnssec status` and the signature-expiry warning of `cutover serve`, from the command
// line as an operator runs them (docs/dnssec.md, "Keys and signatures"): the DS it prints for
// each KSK is the one BIND's dnssec-dsfromkey computes from the same file; a zone whose first
// signature expires within 7 days is a warning in the log, a gauge on /metrics and exit 1;
// `cutover status` shows a served signed zone's keys and signature window.
#include <chrono>
#include <ctime>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"
#include "support/server.h"

namespace cutover::testing {
namespace {

using namespace std::chrono_literals;

std::string fixture(const std::string& name) { return std::string(CUTOVER_SOURCE_DIR) + "/tests/zones/" + name; }

CommandResult cutover(std::vector<std::string> args) {
  args.insert(args.begin(), CUTOVER_BINARY);
  return run_command(std::move(args), 30s);
}

TEST(DnssecStatus, PrintsTheKeysAndTheDsDnssecDsfromkeyComputes) {
  for (const std::string zone : {"signed-nsec", "signed-nsec3", "signed-optout"}) {
    std::string file = fixture(zone + ".test.zone");
    auto status = cutover({"dnssec", "status", zone + ".test", file});
    EXPECT_EQ(status.exit_code, 0) << status.out << status.err;
    EXPECT_NE(status.out.find("signed, denial " + std::string(zone == "signed-nsec" ? "NSEC" : "NSEC3")),
              std::string::npos)
        << status.out;
    if (zone == "signed-optout") {
      EXPECT_NE(status.out.find("with opt-out"), std::string::npos) << status.out;
    }
    if (!have_program("dnssec-dsfromkey")) continue;
    auto reference = run_command({"dnssec-dsfromkey", "-2", "-f", file, zone + ".test."}, 30s);
    ASSERT_EQ(reference.exit_code, 0) << reference.err;
    // "signed-nsec.test. IN DS 4242 13 2 ABCD..." from both.
    std::string ds = reference.out.substr(0, reference.out.find('\n'));
    ASSERT_FALSE(ds.empty());
    EXPECT_NE(status.out.find("DS for the parent: " + ds), std::string::npos) << status.out << "\nwant " << ds;
  }
  auto unsigned_zone = cutover({"dnssec", "status", "example.test", fixture("example.test.zone")});
  EXPECT_EQ(unsigned_zone.exit_code, 1) << unsigned_zone.out;
  EXPECT_NE(unsigned_zone.out.find("not signed"), std::string::npos) << unsigned_zone.out;
  auto missing = cutover({"dnssec", "status", "example.test", "/nonexistent/zone"});
  EXPECT_EQ(missing.exit_code, 2) << missing.out << missing.err;
}

// A CDS that matches no DNSKEY would have the parent publish a DS no key matches (lab E14's
// failure): `cutover dnssec status` names it and exits 1.
TEST(DnssecStatus, ACdsForAKeyTheZoneDoesNotHoldIsAFinding) {
  std::string dir = make_temp_dir("cutover-dnssec-cds");
  write_file(dir + "/cds.zone",
             "$ORIGIN cds.test.\n$TTL 300\n@ SOA ns1 admin 1 3600 600 86400 60\n@ NS ns1\n@ DNSKEY 257 3 13 a2V5\n"
             "@ RRSIG SOA 13 2 300 20371201000000 20261201000000 1 cds.test. c2ln\n"
             "@ CDS 12345 13 2 8FA8B0E3F2B7C5F8A2A9E14E8E2FB1B0D1E5A7C9B3D6F0E2A4C8B1D3E5F7A9C1\nns1 A 192.0.2.1\n");
  auto status = cutover({"dnssec", "status", "cds.test", dir + "/cds.zone"});
  EXPECT_EQ(status.exit_code, 1) << status.out;
  EXPECT_NE(status.out.find("problem: CDS 12345 13 2 8FA8B0E3"), std::string::npos) << status.out;
}

// The CDS and CDNSKEY that BIND's signer publishes for a KSK due to be synced to the parent
// (dnssec-settime -P sync, dnssec-signzone -S) pass the same check.
TEST(DnssecStatus, CdsAndCdnskeyFromDnssecSignzonePassTheCheck) {
  if (!have_program("dnssec-keygen") || !have_program("dnssec-settime") || !have_program("dnssec-signzone")) {
    GTEST_SKIP() << "bind9-utils is needed (scripts/install-deps.sh)";
  }
  std::string dir = make_temp_dir("cutover-dnssec-sync");
  auto tool = [&](std::vector<std::string> args) {
    auto result = run_command(std::move(args), 30s);
    EXPECT_EQ(result.exit_code, 0) << result.out << result.err;
    return result.out.substr(0, result.out.find('\n'));
  };
  std::string ksk = tool({"dnssec-keygen", "-q", "-K", dir, "-a", "ECDSAP256SHA256", "-f", "KSK", "-n", "ZONE", "sync.test."});
  tool({"dnssec-keygen", "-q", "-K", dir, "-a", "ECDSAP256SHA256", "-n", "ZONE", "sync.test."});
  tool({"dnssec-settime", "-K", dir, "-P", "sync", "now", dir + "/" + ksk});
  write_file(dir + "/sync.zone", "$TTL 300\n@ SOA ns1 admin 1 3600 600 86400 60\n@ NS ns1\nns1 A 192.0.2.1\n");
  tool({"dnssec-signzone", "-q", "-S", "-K", dir, "-d", dir, "-o", "sync.test.", "-f", dir + "/sync.signed", dir + "/sync.zone"});
  auto status = cutover({"dnssec", "status", "sync.test", dir + "/sync.signed"});
  EXPECT_EQ(status.exit_code, 0) << status.out;
  EXPECT_NE(status.out.find("CDS: published, CDNSKEY: published"), std::string::npos) << status.out;
  EXPECT_EQ(status.out.find("problem:"), std::string::npos) << status.out;
}

// RRSIG times as a zone file writes them, relative to now.
std::string rrsig_time(std::int64_t from_now) {
  std::time_t time = std::time(nullptr) + from_now;
  std::tm parts{};
  gmtime_r(&time, &parts);
  char text[16];
  std::strftime(text, sizeof text, "%Y%m%d%H%M%S", &parts);
  return text;
}

TEST(DnssecStatus, ASignatureExpiringWithinAWeekIsAWarningAGaugeAndExitOne) {
  std::string dir = make_temp_dir("cutover-dnssec-expiry");
  // Placeholder signatures (cutover serves what the signer wrote, it does not check them);
  // the first to expire does so in two days.
  std::string zone = fmt::format(
      "$ORIGIN soon.test.\n$TTL 300\n@ SOA ns1 admin 1 3600 600 86400 60\n@ NS ns1\n@ DNSKEY 257 3 13 a2V5\n"
      "@ RRSIG SOA 13 2 300 {} {} 1 soon.test. c2ln\nns1 A 192.0.2.1\nns1 RRSIG A 13 3 300 {} {} 1 soon.test. c2ln\n",
      rrsig_time(30 * 86400), rrsig_time(-86400), rrsig_time(2 * 86400), rrsig_time(-86400));
  write_file(dir + "/soon.zone", zone);
  write_file(dir + "/serve.yaml",
             "control:\n  listen: 127.0.0.1:0\nzones:\n  - origin: soon.test\n    file: " + dir + "/soon.zone\n");
  auto status = cutover({"dnssec", "status", "soon.test", dir + "/soon.zone"});
  EXPECT_EQ(status.exit_code, 1) << status.out;
  EXPECT_NE(status.out.find("first to expire: ns1.soon.test. A"), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("within --warn 7d"), std::string::npos) << status.out;
  EXPECT_EQ(cutover({"dnssec", "status", "soon.test", dir + "/soon.zone", "--warn", "1d"}).exit_code, 0);

  ServerSpec spec;
  spec.config = dir + "/serve.yaml";
  CutoverServer server(spec);
  ASSERT_TRUE(server.wait_for_log("dnssec.expiring")) << server.log();
  EXPECT_NE(server.log().find("origin=soon.test."), std::string::npos) << server.log();
  ASSERT_TRUE(server.wait_for_log("control.listen")) << server.log();
  if (!have_program("curl")) GTEST_SKIP() << "curl is not installed";
  auto metrics = run_command({"curl", "-s", fmt::format("http://127.0.0.1:{}/metrics", server.control_port())}, 10s);
  std::smatch match;
  std::regex gauge(R"(cutover_dnssec_signature_expiry_seconds\{zone="soon\.test\."\} (-?\d+))");
  ASSERT_TRUE(std::regex_search(metrics.out, match, gauge)) << metrics.out;
  long seconds = std::stol(match[1].str());
  EXPECT_GT(seconds, 2 * 86400 - 120);
  EXPECT_LE(seconds, 2 * 86400);
  // `cutover status` shows the served signed zone's keys and signature window (its "dnssec"
  // member of /status is what `cutover dnssec status --json` prints for the file).
  std::string control = fmt::format("127.0.0.1:{}", server.control_port());
  auto json = cutover({"status", "--control", control, "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.out << json.err;
  auto document = nlohmann::json::parse(json.out);
  ASSERT_TRUE(document.contains("dnssec")) << json.out;
  ASSERT_EQ(document["dnssec"].size(), 1u) << json.out;
  const auto& served = document["dnssec"][0];
  EXPECT_EQ(served["zone"], "soon.test.");
  EXPECT_EQ(served["signatures"], 2);
  EXPECT_EQ(served["earliest_rrset"], "ns1.soon.test. A");
  EXPECT_GT(served["earliest_expiry_in_seconds"].get<long>(), 2 * 86400 - 120);
  auto file = nlohmann::json::parse(cutover({"dnssec", "status", "soon.test", dir + "/soon.zone", "--json"}).out);
  EXPECT_EQ(served["keys"], file["keys"]);
  EXPECT_EQ(served["latest_inception"], file["latest_inception"]);
  ASSERT_EQ(served["keys"].size(), 1u);
  auto text = cutover({"status", "--control", control});
  ASSERT_EQ(text.exit_code, 0) << text.out << text.err;
  EXPECT_NE(text.out.find("dnssec soon.test.  denial none"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(fmt::format("key KSK     tag {:<5} algorithm 13", served["keys"][0]["key_tag"].get<int>())),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("first to expire ns1.soon.test. A at "), std::string::npos) << text.out;
}

}  // namespace
}  // namespace cutover::testing
