// PolicyRegistry (pool shapes by name) and the one list of built-in shapes.
#include <algorithm>

#include "pool/policy.h"

namespace cutover::pool {

// The one table of built-in shapes. Each entry FOLDER is the folder pool/FOLDER/, which
// defines `void register_FOLDER_shape(PolicyRegistry&)` (declared here, so this file
// includes no shape's header): a new shape is its folder plus one line in this table.
#define CUTOVER_POOL_SHAPES(X) \
  X(failover)                  \
  X(all_healthy)               \
  X(weighted)

#define CUTOVER_DECLARE_SHAPE(folder) void register_##folder##_shape(PolicyRegistry& registry);
CUTOVER_POOL_SHAPES(CUTOVER_DECLARE_SHAPE)
#undef CUTOVER_DECLARE_SHAPE

const char* all_down_to_text(AllDownPolicy policy) {
  switch (policy) {
    case AllDownPolicy::kFailOpen: return "fail-open";
    case AllDownPolicy::kFallback: return "fallback";
    case AllDownPolicy::kNoData: return "nodata";
  }
  return "fail-open";
}

std::string MinHealthy::to_text() const {
  if (!enabled()) return "off";
  return std::to_string(value) + (percent ? "%" : "");
}

void PolicyRegistry::add(Shape shape) {
  std::string name = shape.name;
  if (!shapes_.contains(name)) order_.push_back(name);
  shapes_[name] = std::move(shape);
}

const Shape* PolicyRegistry::find_shape(const std::string& shape) const {
  auto it = shapes_.find(shape);
  return it == shapes_.end() ? nullptr : &it->second;
}

const Policy* PolicyRegistry::find(const std::string& shape) const {
  const Shape* found = find_shape(shape);
  return found == nullptr ? nullptr : &found->choose;
}

std::vector<std::string> PolicyRegistry::shapes() const {
  std::vector<std::string> names;
  for (const auto& [name, shape] : shapes_) names.push_back(name);
  return names;
}

std::vector<std::string> PolicyRegistry::shapes_with_option(const std::string& key) const {
  std::vector<std::string> names;
  for (const auto& [name, shape] : shapes_) {
    if (std::find(shape.option_keys.begin(), shape.option_keys.end(), key) != shape.option_keys.end()) {
      names.push_back(name);
    }
  }
  return names;
}

std::vector<std::string> PolicyRegistry::option_keys() const {
  std::vector<std::string> keys;
  for (const auto& name : order_) {
    for (const auto& key : shapes_.at(name).option_keys) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  return keys;
}

std::vector<std::string> PolicyRegistry::fixed_answer_shapes() const {
  std::vector<std::string> names;
  for (const auto& name : order_) {
    if (!shapes_.at(name).draws_per_query) names.push_back(name);
  }
  return names;
}

void register_builtin_policies(PolicyRegistry& registry) {
#define CUTOVER_REGISTER_SHAPE(folder) register_##folder##_shape(registry);
  CUTOVER_POOL_SHAPES(CUTOVER_REGISTER_SHAPE)
#undef CUTOVER_REGISTER_SHAPE
}

void read_max_answers(PoolSpec& spec, const health::OptionReader& reader) {
  spec.max_answers = reader.count("max-answers", 64);
}

std::vector<Candidate> serving_only(std::span<const Candidate> candidates) {
  std::vector<Candidate> out;
  for (const auto& candidate : candidates) {
    if (candidate.serving) out.push_back(candidate);
  }
  return out;
}

}  // namespace cutover::pool
