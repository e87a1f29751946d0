// The client programs of src/lab/clients/programs/, embedded in the binary at build time
// (src/lab/CMakeLists.txt generates the definition), so `cutover lab` finds them installed or
// not. Immutable data; thread-safe.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

namespace cutover::lab {

// (file name, content) of every shipped program.
const std::vector<std::pair<std::string_view, std::string_view>>& client_programs();

}  // namespace cutover::lab
