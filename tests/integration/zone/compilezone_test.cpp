// Differential tests against BIND: for every zone in tests/zones, named-compilezone's
// canonical output and the original file must load in cutover to the same records
// (compared as `cutover check-zone --dump` lines; skipped when BIND's tool is absent);
// malformed records of the less common types are refused by both; and dig reads every type
// of tests/zones/alltypes.test.zone from cutover's wire form as the zone holds it.
#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "support/dig.h"
#include "support/server.h"
#include "zone/zone_files.h"

namespace cutover::testing {
namespace {

std::string find_compilezone() {
  for (const char* dir : {"/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin"}) {
    std::filesystem::path path = std::filesystem::path(dir) / "named-compilezone";
    if (std::filesystem::exists(path)) return path.string();
  }
  return {};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Lines only in `a`, each prefixed with `label`.
std::string only_in(const std::vector<std::string>& a, const std::vector<std::string>& b, const char* label) {
  std::string out;
  for (const auto& line : a) {
    if (std::find(b.begin(), b.end(), line) == b.end()) out += std::string(label) + line + "\n";
  }
  return out;
}

// `cutover check-zone --dump`, which must succeed.
std::vector<std::string> dump(const std::string& origin, const std::string& file) {
  auto result = run_command({CUTOVER_BINARY, "check-zone", "--dump", origin, file}, std::chrono::seconds(60));
  EXPECT_EQ(result.exit_code, 0) << file << ":\n" << result.err;
  return lines_of(result.out);
}

TEST(CompileZone, EveryTestZoneLoadsAsBindLoadsIt) {
  std::string compilezone = find_compilezone();
  if (compilezone.empty()) GTEST_SKIP() << "named-compilezone is not installed";
  std::string scratch = make_temp_dir("compilezone");
  auto zones = zone_files(zones_dir());
  ASSERT_GE(zones.size(), 8u);
  for (const auto& zone : zones) {
    SCOPED_TRACE(zone.filename().string());
    std::string origin = origin_of(zone);
    std::string bind_output = scratch + "/" + origin + ".bind";
    // BIND resolves relative $INCLUDE paths from its working directory, cutover from the
    // including file's directory (docs/zone-files.md); running BIND in tests/zones makes
    // the two agree for the test zones, whose includes all sit one level down.
    auto compiled = run_in(zones_dir(), {compilezone, "-q", "-s", "full", "-i", "none", "-o", bind_output, origin,
                                         zone.filename().string()});
    ASSERT_EQ(compiled.exit_code, 0) << compiled.out << compiled.err;

    auto ours = dump(origin, zone.string());
    auto theirs = dump(origin, bind_output);
    EXPECT_FALSE(ours.empty());
    EXPECT_EQ(ours, theirs) << "records only cutover reads from the original:\n"
                            << only_in(ours, theirs, "  + ") << "records only in BIND's output:\n"
                            << only_in(theirs, ours, "  - ");
  }
}

// The wire form of every type, read back by dig (BIND's wire parser and printer): dig's
// presentation of each answer, loaded again by cutover, gives the zone's records back.
TEST(CompileZone, EveryTypeReadsBackFromTheWireAsTheZoneHoldsIt) {
  std::string file = (zones_dir() / "alltypes.test.zone").string();
  auto records = dump("alltypes.test", file);
  ASSERT_GT(records.size(), 70u);
  ServerSpec spec;
  spec.zones = {{"alltypes.test.", file}};
  CutoverServer server(spec);
  std::set<std::pair<std::string, std::string>> asked;
  std::string text = "$TTL 3600\n";
  for (const auto& line : records) {
    std::istringstream fields(line);
    std::string owner, ttl, klass, type;
    fields >> owner >> ttl >> klass >> type;
    if (!asked.insert({owner, type}).second) continue;
    DigResult reply = dig(server.port(), owner, type, {"+norecurse"});
    ASSERT_EQ(reply.status, "NOERROR") << owner << " " << type << "\n" << reply.raw;
    for (const auto& record : reply.answer) {
      text += record.owner + " " + std::to_string(record.ttl) + " IN " + record.type + " " + record.rdata + "\n";
    }
  }
  std::string scratch = make_temp_dir("alltypes-wire");
  write_file(scratch + "/alltypes.test.zone", text);
  auto from_wire = dump("alltypes.test", scratch + "/alltypes.test.zone");
  EXPECT_EQ(from_wire, records) << "records only dig saw:\n"
                                << only_in(from_wire, records, "  + ") << "records dig did not see:\n"
                                << only_in(records, from_wire, "  - ");
}

// Records of the less common types that are malformed: BIND refuses each zone, and so must
// cutover, naming the record's line.
TEST(CompileZone, MalformedRecordsOfTheOtherTypesAreRefusedByBoth) {
  std::string compilezone = find_compilezone();
  if (compilezone.empty()) GTEST_SKIP() << "named-compilezone is not installed";
  const char* records[] = {
      "loc LOC 91 0 0 N 0 0 0 E 0m",     "loc LOC 10 N 181 E 0",
      "apl APL 3:1.2.3.4/8",             "apl APL 1:1.2.3.4/33",
      "eui48 EUI48 00-00-5e-00-53",      "eui64 EUI64 00:00:5e:ef:10:00:00:2a",
      "wks WKS 192.0.2.1 6 65536",       "a6 A6 129 ::",
      "cert CERT BOGUS 1 1 AQ==",        "nid NID 10 0014:4fff:ff20",
      "hip HIP 2 XYZ AQ==",              "ipseckey IPSECKEY 10 1 2 gw.example. AQ==",
      "amtrelay AMTRELAY 10 0 4 .",      "nxt NXT next A TYPE200",
      "atma ATMA +12a",                  "nsap NSAP 47.0005",
      "x25 X25",                         "rp RP a.",
      "l32 L32 10 10.1.2",               "uri URI 10 1",
      "csync CSYNC 1 0 BOGUS",
  };
  std::string scratch = make_temp_dir("compilezone-bad");
  for (const char* record : records) {
    SCOPED_TRACE(record);
    std::string file = scratch + "/bad.test.zone";
    write_file(file, std::string("$TTL 60\n@ SOA ns hostmaster 1 3600 600 86400 60\n@ NS ns\nns A 192.0.2.1\n") +
                         record + "\n");
    auto bind = run_command({compilezone, "-q", "-s", "full", "-i", "none", "-o", scratch + "/out", "bad.test", file},
                            std::chrono::seconds(60));
    EXPECT_NE(bind.exit_code, 0) << "BIND accepted it";
    auto ours = run_command({CUTOVER_BINARY, "check-zone", "bad.test", file}, std::chrono::seconds(60));
    EXPECT_NE(ours.exit_code, 0) << "cutover accepted it";
    EXPECT_NE(ours.err.find("bad.test.zone:5:"), std::string::npos) << ours.err;
  }
}

}  // namespace
}  // namespace cutover::testing
