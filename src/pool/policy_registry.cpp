// PolicyRegistry and the one list of built-in pool shapes.
#include "pool/all_healthy/all_healthy_policy.h"
#include "pool/failover/failover_policy.h"
#include "pool/policy.h"
#include "pool/weighted/weighted_policy.h"

namespace cutover::pool {

const char* all_down_to_text(AllDownPolicy policy) {
  switch (policy) {
    case AllDownPolicy::kFailOpen: return "fail-open";
    case AllDownPolicy::kFallback: return "fallback";
    case AllDownPolicy::kNoData: return "nodata";
  }
  return "fail-open";
}

const Policy* PolicyRegistry::find(const std::string& shape) const {
  auto it = policies_.find(shape);
  return it == policies_.end() ? nullptr : &it->second;
}

std::vector<std::string> PolicyRegistry::shapes() const {
  std::vector<std::string> names;
  for (const auto& [name, policy] : policies_) names.push_back(name);
  return names;
}

void register_builtin_policies(PolicyRegistry& registry) {
  registry.add("failover", choose_failover);
  registry.add("all-healthy", choose_all_healthy);
  registry.add("weighted", choose_weighted);
}

std::vector<Candidate> serving_only(std::span<const Candidate> candidates) {
  std::vector<Candidate> out;
  for (const auto& candidate : candidates) {
    if (candidate.serving) out.push_back(candidate);
  }
  return out;
}

}  // namespace cutover::pool
