// ProbeRegistry: probe types by name, and the one list of built-in types.
#include <algorithm>

#include <fmt/format.h>

#include "health/probe.h"
#include "health/signal/signal_board.h"

namespace cutover::health {

// The one table of built-in probe types. Each entry FOLDER is the folder health/FOLDER/,
// which defines `void register_FOLDER_probe(ProbeRegistry&)` (declared here, so this file
// includes no probe's header): a new type is its folder plus one line in this table.
#define CUTOVER_PROBE_TYPES(X) \
  X(tcp)                       \
  X(http)                      \
  X(dns)                       \
  X(exec)                      \
  X(tcp_banner)                \
  X(signal_check)              \
  X(file)

#define CUTOVER_DECLARE_PROBE(folder) void register_##folder##_probe(ProbeRegistry& registry);
CUTOVER_PROBE_TYPES(CUTOVER_DECLARE_PROBE)
#undef CUTOVER_DECLARE_PROBE

const char* outcome_to_text(ProbeOutcome outcome) {
  switch (outcome) {
    case ProbeOutcome::kPass: return "pass";
    case ProbeOutcome::kFail: return "fail";
    case ProbeOutcome::kError: return "error";
  }
  return "error";
}

ProbeRegistry::ProbeRegistry() : signals_(std::make_shared<SignalBoard>()) {}

void ProbeRegistry::add(ProbeType type) {
  std::string name = type.name;
  if (!types_.contains(name)) order_.push_back(name);
  types_[name] = std::move(type);
}

const ProbeType* ProbeRegistry::find(const std::string& type) const {
  auto it = types_.find(type);
  return it == types_.end() ? nullptr : &it->second;
}

std::vector<std::string> ProbeRegistry::types() const {
  std::vector<std::string> names;
  for (const auto& [name, type] : types_) names.push_back(name);
  return names;
}

std::vector<std::string> ProbeRegistry::types_with_option(const std::string& key) const {
  std::vector<std::string> names;
  for (const auto& [name, type] : types_) {
    if (std::find(type.option_keys.begin(), type.option_keys.end(), key) != type.option_keys.end()) names.push_back(name);
  }
  return names;
}

std::vector<std::string> ProbeRegistry::option_keys() const {
  std::vector<std::string> keys;
  for (const auto& name : order_) {
    for (const auto& key : types_.at(name).option_keys) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  return keys;
}

std::uint16_t ProbeRegistry::default_port(const std::string& type) const {
  const ProbeType* found = find(type);
  return found == nullptr ? 0 : found->default_port;
}

base::Result<std::unique_ptr<Probe>> ProbeRegistry::create(const CheckSettings& settings) const {
  const ProbeType* type = find(settings.type);
  if (type == nullptr) {
    return base::make_error(base::ErrorCode::kNotFound, fmt::format("unknown probe type '{}'", settings.type));
  }
  return type->create(settings);
}

void register_builtin_probes(ProbeRegistry& registry) {
#define CUTOVER_REGISTER_PROBE(folder) register_##folder##_probe(registry);
  CUTOVER_PROBE_TYPES(CUTOVER_REGISTER_PROBE)
#undef CUTOVER_REGISTER_PROBE
}

}  // namespace cutover::health
