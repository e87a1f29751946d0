// Precompiled once for every cutover_* library (CUTOVER_PCH, cmake/cutover_module.cmake):
// the standard headers most sources include, fmt and nlohmann/json. Nothing here may depend
// on a macro that only some targets define.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
