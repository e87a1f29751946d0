// A pool's state as the write path keeps and journals it: its version and plan version,
// its settings when it was made through the API (the JSON as sent, config-file keys), and
// the operator overrides on its endpoints. Plain values; thread-compatible.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "health/state_machine.h"

namespace cutover::pool {

struct PoolState {
  std::uint64_t version = 0;       // 0: never written
  std::uint64_t plan_version = 0;  // the last applied plan version
  // The settings of a pool made through the API; nullopt for a config pool, a deleted
  // pool and one never made.
  std::optional<nlohmann::json> settings;
  std::map<std::string, health::Override> overrides;  // by endpoint address; never kNone

  // Same content (settings and overrides), whatever the versions.
  bool same_content(const PoolState& other) const { return settings == other.settings && overrides == other.overrides; }
};

// {"settings": {...} | null, "overrides": {"192.0.2.30": "drain"}}: what the journal stores.
nlohmann::json pool_state_json(const PoolState& state);
// Reads pool_state_json's form; versions are left 0.
base::Result<PoolState> pool_state_from_json(const nlohmann::json& json);
// "drain", "force-up", "none"/"undrain" (kNone).
base::Result<health::Override> override_from_text(const std::string& text);

}  // namespace cutover::pool
