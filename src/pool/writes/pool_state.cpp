// JSON form of a pool's journaled state.
#include "pool/writes/pool_state.h"

namespace cutover::pool {

using base::ErrorCode;
using base::make_error;

nlohmann::json pool_state_json(const PoolState& state) {
  nlohmann::json overrides = nlohmann::json::object();
  for (const auto& [address, value] : state.overrides) overrides[address] = health::override_to_text(value);
  return {{"settings", state.settings ? *state.settings : nlohmann::json()}, {"overrides", overrides}};
}

base::Result<PoolState> pool_state_from_json(const nlohmann::json& json) {
  if (!json.is_object() || !json.contains("settings") || !json.contains("overrides") || !json["overrides"].is_object()) {
    return make_error(ErrorCode::kMalformed, "a pool state needs settings and an overrides object");
  }
  PoolState state;
  if (!json["settings"].is_null()) state.settings = json["settings"];
  for (const auto& [address, value] : json["overrides"].items()) {
    if (!value.is_string()) return make_error(ErrorCode::kMalformed, "override of " + address + " is not a string");
    auto parsed = override_from_text(value.get<std::string>());
    if (!parsed) return parsed.error();
    if (*parsed != health::Override::kNone) state.overrides[address] = *parsed;
  }
  return state;
}

base::Result<health::Override> override_from_text(const std::string& text) {
  if (text == "drain") return health::Override::kDrain;
  if (text == "force-up") return health::Override::kForceUp;
  if (text == "none" || text == "undrain") return health::Override::kNone;
  return make_error(ErrorCode::kInvalidArgument, "unknown override '" + text + "' (expected drain, undrain or force-up)");
}

}  // namespace cutover::pool
