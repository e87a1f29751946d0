// Unit tests of each semantic check, and of the loader on the bad zones in tests/zones/bad
// (every expectation there, "; expect: LINE:COL: severity: text", must match exactly).
#include "zone/checks.h"

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "zone/loader.h"
#include "zone/parse_test_support.h"

namespace cutover::zone {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using test::diagnostic_lines;

constexpr const char* kApex =
    "$TTL 300\n"
    "@ SOA ns hostmaster 1 3600 600 86400 300\n"
    "@ NS ns\n"
    "ns A 192.0.2.1\n";  // lines 1-4; a test's own lines start at 5

std::vector<std::string> check(const std::string& text) {
  auto parsed = test::parse(text);
  EXPECT_THAT(diagnostic_lines(parsed.diagnostics), IsEmpty());
  return diagnostic_lines(check_zone_records(test::test_origin(), parsed.records, "test.zone"));
}

TEST(Checks, CleanZoneHasNoFindings) {
  EXPECT_THAT(check(std::string(kApex) + "www A 192.0.2.2\nwww AAAA 2001:db8::2\n"), IsEmpty());
}

TEST(Checks, SoaMissingDuplicatedOrMisplaced) {
  EXPECT_THAT(check("$TTL 300\n@ NS ns\nns A 192.0.2.1\n"),
              ElementsAre("0:0: error: no SOA record at the zone apex 'example.test.'"));
  EXPECT_THAT(check(std::string(kApex) + "@ SOA ns hostmaster 2 3600 600 86400 300\n"),
              ElementsAre("5:1: error: more than one SOA record at the apex (the first is at line 2)"));
  EXPECT_THAT(check(std::string(kApex) + "@ SOA ns hostmaster 1 3600 600 86400 300\n"), IsEmpty());
  EXPECT_THAT(check(std::string(kApex) + "sub SOA ns hostmaster 1 3600 600 86400 300\n"),
              ElementsAre("5:1: error: SOA record at 'sub.example.test.' is not at the zone apex 'example.test.'"));
}

TEST(Checks, ApexNeedsNs) {
  EXPECT_THAT(check("$TTL 300\n@ SOA ns hostmaster 1 3600 600 86400 300\n"),
              ElementsAre("2:1: error: no NS records at the zone apex 'example.test.'"));
}

TEST(Checks, CnameAndOtherData) {
  EXPECT_THAT(check(std::string(kApex) + "www A 192.0.2.2\nwww CNAME ns\n"),
              ElementsAre("6:1: error: CNAME and other data at 'www.example.test.': CNAME here and A at line 5"));
  // DNSSEC records may accompany a CNAME.
  EXPECT_THAT(check(std::string(kApex) + "www CNAME ns\nwww NSEC ns CNAME RRSIG NSEC\n"), IsEmpty());
}

TEST(Checks, OwnersDifferingOnlyInCaseAreOneName) {
  EXPECT_THAT(check(std::string(kApex) + "www A 192.0.2.2\nWWW CNAME ns\n"),
              ElementsAre("6:1: error: CNAME and other data at 'www.example.test.': CNAME here and A at line 5"));
  EXPECT_THAT(check(std::string(kApex) + "Sub NS ns.other.\nsub NS ns2.other.\nhost.SUB TXT x\n"),
              ElementsAre("7:1: warning: occluded: the TXT record at 'host.SUB.example.test.' is below the delegation "
                          "at 'Sub.example.test.' (line 5)"));
}

TEST(Checks, MoreThanOneCname) {
  EXPECT_THAT(check(std::string(kApex) + "www CNAME ns\nwww CNAME other\n"),
              ElementsAre("6:1: error: more than one CNAME at 'www.example.test.' (the first is at line 5)"));
  EXPECT_THAT(check(std::string(kApex) + "www CNAME ns\nwww CNAME NS\n"), IsEmpty());  // the same rdata twice
}

TEST(Checks, OutOfZone) {
  EXPECT_THAT(check(std::string(kApex) + "www.example.net. A 192.0.2.2\n"),
              ElementsAre("5:1: error: 'www.example.net.' is outside the zone 'example.test.'"));
}

TEST(Checks, DifferentTtlsInOneRrset) {
  EXPECT_THAT(check(std::string(kApex) + "w 600 A 192.0.2.2\nw 60 A 192.0.2.3\nw 30 A 192.0.2.4\n"),
              ElementsAre("6:1: warning: TTL 60 differs from TTL 600 of the same A RRset at line 5; the lowest, 30, "
                          "is used (RFC 2181 §5.2)"));
  // RRSIGs covering different types are not one RRset in this sense.
  EXPECT_THAT(check(std::string(kApex) +
                    "ns 60 RRSIG A 13 3 60 20300101000000 20240101000000 1 example.test. AAAA\n"
                    "ns 600 RRSIG NS 13 3 600 20300101000000 20240101000000 1 example.test. AAAA\n"),
              IsEmpty());
}

TEST(Checks, MissingGlue) {
  EXPECT_THAT(check(std::string(kApex) + "sub NS ns.sub\nsub NS ns.example.net.\n"),
              ElementsAre("5:1: warning: missing glue: the NS target 'ns.sub.example.test.' of 'sub.example.test.' "
                          "is inside the zone but has no A or AAAA record"));
  EXPECT_THAT(check(std::string(kApex) + "@ NS ns2\n"),
              ElementsAre("5:1: warning: missing glue: the NS target 'ns2.example.test.' of 'example.test.' is "
                          "inside the zone but has no A or AAAA record"));
  // Glue under the cut, at the cut itself, and under a sibling delegation all count.
  EXPECT_THAT(check(std::string(kApex) + "sub NS ns.sub\nns.sub A 192.0.2.9\nself NS self\nself AAAA 2001:db8::9\n"
                                         "other NS ns.sub\n"),
              IsEmpty());
}

TEST(Checks, OccludedByDelegation) {
  EXPECT_THAT(check(std::string(kApex) + "sub NS ns.example.net.\nsub MX 10 mail\nwww.sub TXT hidden\n"
                                         "glue.sub A 192.0.2.7\nsub DS 1 13 2 abcd\n"),
              ElementsAre("6:1: warning: occluded: the MX record at 'sub.example.test.' sits at a delegation point",
                          "7:1: warning: occluded: the TXT record at 'www.sub.example.test.' is below the "
                          "delegation at 'sub.example.test.' (line 5)"));
}

TEST(Checks, DataBelowDname) {
  EXPECT_THAT(check(std::string(kApex) + "old DNAME example.net.\nold TXT at-the-dname-is-fine\nx.old A 192.0.2.8\n"),
              ElementsAre("7:1: error: 'x.old.example.test.' is below the DNAME at 'old.example.test.' (line 5) and "
                          "can never be answered"));
}

TEST(Loader, BuildsTheZoneOnlyWithoutErrors) {
  auto good = load_zone_text(test::test_origin(), std::string(kApex) + "w 600 A 192.0.2.2\nw 60 A 192.0.2.3\n", "t");
  ASSERT_NE(good.zone, nullptr);
  ASSERT_EQ(good.diagnostics.size(), 1u);  // the TTL warning does not stop the load
  EXPECT_EQ(good.zone->soa_fields().serial, 1u);

  auto bad = load_zone_text(test::test_origin(), std::string(kApex) + "x bogus A 192.0.2.1\n", "t");
  EXPECT_EQ(bad.zone, nullptr);
  EXPECT_TRUE(has_errors(bad.diagnostics));
}

TEST(Loader, UnreadableFileIsOneDiagnostic) {
  auto load = load_zone_file(test::test_origin(), "/nonexistent/zone.db");
  EXPECT_EQ(load.zone, nullptr);
  ASSERT_EQ(load.diagnostics.size(), 1u);
  EXPECT_EQ(load.diagnostics[0].location.file, "/nonexistent/zone.db");
}

// Reads "; expect: ..." lines at the top of a bad zone.
std::vector<std::string> expectations(const std::filesystem::path& file) {
  std::vector<std::string> out;
  std::ifstream in(file);
  std::string line;
  const std::string prefix = "; expect: ";
  while (std::getline(in, line) && line.starts_with(prefix)) out.push_back(line.substr(prefix.size()));
  return out;
}

TEST(Loader, BadZonesReportExactPositions) {
  std::filesystem::path bad_dir = std::filesystem::path(CUTOVER_SOURCE_DIR) / "tests" / "zones" / "bad";
  // Paths relative to tests/zones, so messages naming included files match the comments.
  std::filesystem::current_path(bad_dir.parent_path());
  int zones = 0;
  for (const auto& entry : std::filesystem::directory_iterator(bad_dir)) {
    if (entry.path().extension() != ".zone") continue;
    ++zones;
    std::string file = "bad/" + entry.path().filename().string();
    auto load = load_zone_file(test::test_origin(), file);
    std::vector<std::string> actual;
    for (const auto& d : load.diagnostics) actual.push_back(d.to_string());
    auto expected = expectations(entry.path());
    ASSERT_FALSE(expected.empty()) << file << " has no '; expect:' line";
    EXPECT_EQ(load.zone, nullptr) << file;
    ASSERT_EQ(actual.size(), expected.size()) << file << ":\n" << ::testing::PrintToString(actual);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      // "LINE:COL: ..." expectations follow "FILE:"; file-level ones follow "FILE: ".
      std::string want = file + (expected[i][0] >= '0' && expected[i][0] <= '9' ? ":" : ": ") + expected[i];
      EXPECT_TRUE(actual[i].starts_with(want)) << "expected: " << want << "\nactual:   " << actual[i];
    }
  }
  EXPECT_GE(zones, 20);
}

}  // namespace
}  // namespace cutover::zone
