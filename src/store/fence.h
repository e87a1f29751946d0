// The fence of the write path, the same for zone and pool writes: `expected_version` is a
// compare-and-set on the version of what is written, and `plan_version`, when given, must
// be above the last applied plan version (docs/writes.md, "The write path"). One refusal
// text for each, naming what is written ("zone example.test.", "pool web") and its current
// version. Stateless; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "store/write_result.h"

namespace cutover::store {

struct FenceRefusal {
  WriteStatus status = WriteStatus::kConflict;  // kConflict or kStale
  std::string message;
};

// `subject` names what is written; `version` and `plan_version` are its current ones.
std::optional<FenceRefusal> check_fence(std::string_view subject, std::uint64_t version, std::uint64_t plan_version,
                                        const std::optional<std::uint64_t>& expected_version,
                                        const std::optional<std::uint64_t>& requested_plan_version);

}  // namespace cutover::store
