// Differential test against BIND: for every zone in tests/zones, named-compilezone's
// canonical output and the original file must load in cutover to the same records
// (compared as `cutover check-zone --dump` lines). Skipped when BIND's tool is absent.
#include <algorithm>
#include <filesystem>
#include <sstream>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace cutover::testing
