// What `cutover --version` prints: the version and how this binary was built (commit,
// compiler, build type), fixed when CMake configured the build (src/cmd/CMakeLists.txt).
// Constant data; thread-safe.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace cutover::cmd {

struct BuildInfo {
  std::string version;     // the project's version, "0.1.0"
  std::string commit;      // `git rev-parse HEAD` when configured; "unknown" outside a git checkout
  std::string compiler;    // "GNU 12.2.0"
  std::string build_type;  // CMAKE_BUILD_TYPE, e.g. "RelWithDebInfo"
};

const BuildInfo& build_info();

// "cutover 0.1.0\ncommit ...\ncompiler ...\nbuild type ..." (no final newline).
std::string version_text();
// {"version", "commit", "compiler", "build_type"}.
nlohmann::json version_json();

}  // namespace cutover::cmd
