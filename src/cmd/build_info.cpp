// The build facts CMake passes to this file alone (its COMPILE_DEFINITIONS), so a new commit
// recompiles only this file.
#include "cmd/build_info.h"

#ifndef CUTOVER_VERSION
#error "CUTOVER_VERSION is set by src/cmd/CMakeLists.txt"
#endif

namespace cutover::cmd {

const BuildInfo& build_info() {
  static const BuildInfo info{CUTOVER_VERSION, CUTOVER_COMMIT, CUTOVER_COMPILER, CUTOVER_BUILD_TYPE};
  return info;
}

std::string version_text() {
  const BuildInfo& info = build_info();
  return "cutover " + info.version + "\ncommit " + info.commit + "\ncompiler " + info.compiler + "\nbuild type " +
         info.build_type;
}

nlohmann::json version_json() {
  const BuildInfo& info = build_info();
  return {{"version", info.version}, {"commit", info.commit}, {"compiler", info.compiler}, {"build_type", info.build_type}};
}

}  // namespace cutover::cmd
