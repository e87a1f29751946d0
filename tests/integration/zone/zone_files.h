// Shared helpers of the zone integration tests: where the test zones are, their origins,
// and running commands inside a directory. Test-only; stateless.
#pragma once

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "support/process.h"

namespace cutover::testing {

inline std::filesystem::path zones_dir() { return std::filesystem::path(CUTOVER_SOURCE_DIR) / "tests" / "zones"; }

// The *.zone files directly in `dir`, sorted.
inline std::vector<std::filesystem::path> zone_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".zone") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A good test zone's origin is its file name without ".zone" (example.test.zone -> example.test).
inline std::string origin_of(const std::filesystem::path& zone) { return zone.stem().string(); }

inline std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs argv with `dir` as the working directory (run_command has no such option).
inline CommandResult run_in(const std::filesystem::path& dir, const std::vector<std::string>& argv) {
  std::string script = "cd " + shell_quote(dir.string()) + " && exec";
  for (const auto& arg : argv) script += " " + shell_quote(arg);
  return run_command({"sh", "-c", script}, std::chrono::seconds(60));
}

}  // namespace cutover::testing
