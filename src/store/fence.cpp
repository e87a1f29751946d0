// The fence's two checks and their refusal texts.
#include "store/fence.h"

#include <fmt/format.h>

namespace cutover::store {

std::optional<FenceRefusal> check_fence(std::string_view subject, std::uint64_t version, std::uint64_t plan_version,
                                        const std::optional<std::uint64_t>& expected_version,
                                        const std::optional<std::uint64_t>& requested_plan_version) {
  if (expected_version && *expected_version != version) {
    return FenceRefusal{WriteStatus::kConflict, fmt::format("{}: version conflict: expected {}, current version is {}",
                                                            subject, *expected_version, version)};
  }
  if (requested_plan_version && *requested_plan_version <= plan_version) {
    return FenceRefusal{WriteStatus::kStale,
                        fmt::format("{}: stale plan: plan_version {} is not above the last applied plan version {} "
                                    "(current version {})",
                                    subject, *requested_plan_version, plan_version, version)};
  }
  return std::nullopt;
}

}  // namespace cutover::store
