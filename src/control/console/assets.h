// The console's static files (console/assets/*), compiled in by cmake/embed_files.cmake.
// Immutable data; thread-safe.
#pragma once

#include <span>
#include <string_view>

namespace cutover::control {

struct ConsoleAsset {
  std::string_view name;          // file name under console/assets/, e.g. "app.js"
  std::string_view content_type;  // from its extension
  std::string_view body;
};

// Every file, in the order src/control/CMakeLists.txt lists them.
std::span<const ConsoleAsset> console_assets();

}  // namespace cutover::control
