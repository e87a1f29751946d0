// `cutover check-zone` end to end: exit codes, the summary line, and FILE:LINE:COL
// diagnostics for every zone in tests/zones/bad (see the "; expect:" lines there).
#include <fstream>

#include <gtest/gtest.h>

#include "zone/zone_files.h"

namespace cutover::testing {
namespace {

std::vector<std::string> expectations(const std::filesystem::path& file) {
  std::vector<std::string> out;
  std::ifstream in(file);
  const std::string prefix = "; expect: ";
  for (std::string line; std::getline(in, line) && line.starts_with(prefix);) out.push_back(line.substr(prefix.size()));
  return out;
}

TEST(CheckZone, GoodZoneExitsZeroWithSummary) {
  auto result = run_in(zones_dir(), {CUTOVER_BINARY, "check-zone", "example.test", "example.test.zone"});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, "example.test.: loaded serial 2024010101, 22 records\n");
  EXPECT_EQ(result.err, "");
}

TEST(CheckZone, WarningsGoToStderrWithoutFailing) {
  auto result = run_in(zones_dir(), {CUTOVER_BINARY, "check-zone", "nottl.test", "nottl.test.zone"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.err, "nottl.test.zone:3:1: warning: no TTL and no $TTL: using the SOA MINIMUM 120 as the default\n");
}

// A file that cannot be read is no finding about the zone: the check could not run (docs/cli.md).
TEST(CheckZone, MissingFileExitsTwo) {
  auto result = run_command({CUTOVER_BINARY, "check-zone", "example.test", "/nonexistent/zone.db"},
                            std::chrono::seconds(30));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("/nonexistent/zone.db: cannot read"), std::string::npos) << result.err;
  EXPECT_EQ(result.out, "");
  auto json = run_command({CUTOVER_BINARY, "check-zone", "example.test", "/nonexistent/zone.db", "--json"},
                          std::chrono::seconds(30));
  EXPECT_EQ(json.exit_code, 2);
  EXPECT_NE(json.out.find("\"exit_code\": 2"), std::string::npos) << json.out;
}

TEST(CheckZone, JsonCarriesTheSummaryAndEveryDiagnostic) {
  auto good = run_in(zones_dir(), {CUTOVER_BINARY, "check-zone", "example.test", "example.test.zone", "--json"});
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_EQ(good.err, "");
  EXPECT_NE(good.out.find("\"serial\": 2024010101"), std::string::npos) << good.out;
  EXPECT_NE(good.out.find("\"records\": 22"), std::string::npos) << good.out;
  auto bad = run_in(zones_dir(), {CUTOVER_BINARY, "check-zone", "example.test", "bad/" + zone_files(zones_dir() / "bad")
                                                                                         .front()
                                                                                         .filename()
                                                                                         .string(),
                                  "--json"});
  EXPECT_EQ(bad.exit_code, 1) << bad.out;
  EXPECT_EQ(bad.err, "");  // every diagnostic is in the document
  EXPECT_NE(bad.out.find("\"severity\": \"error\""), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("\"loaded\": false"), std::string::npos) << bad.out;
}

TEST(CheckZone, BadZonesReportEachProblemWithItsPosition) {
  auto zones = zone_files(zones_dir() / "bad");
  ASSERT_GE(zones.size(), 20u);
  for (const auto& zone : zones) {
    std::string file = "bad/" + zone.filename().string();
    SCOPED_TRACE(file);
    auto result = run_in(zones_dir(), {CUTOVER_BINARY, "check-zone", "example.test", file});
    EXPECT_EQ(result.exit_code, 1) << result.out << result.err;
    auto expected = expectations(zone);
    ASSERT_FALSE(expected.empty());
    std::size_t errors = 0;
    for (const auto& expectation : expected) {
      bool positioned = expectation[0] >= '0' && expectation[0] <= '9';
      std::string want = file + (positioned ? ":" : ": ") + expectation;
      EXPECT_NE(result.err.find(want), std::string::npos) << "missing: " << want << "\nstderr:\n" << result.err;
      if (expectation.find(": error: ") != std::string::npos || expectation.starts_with("error: ")) ++errors;
    }
    EXPECT_EQ(result.out, "example.test.: " + std::to_string(errors) + " errors\n");
  }
}

}  // namespace
}  // namespace cutover::testing
