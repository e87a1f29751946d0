// Pool policies: decide which endpoints of one address family go into the answer, from
// their serving flags only (policies read health snapshots, never probes). Each policy is
// a folder registered from one explicit list. Policies are pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "pool/pool_spec.h"

namespace cutover::pool {

struct Candidate {
  std::size_t index = 0;  // into PoolSpec::endpoints
  int priority = 1;
  std::uint32_t weight = 1;
  bool serving = false;
};

struct Selection {
  std::vector<Candidate> members;  // in answer order
  // 0: every member is answered; N: each query picks N members by weight.
  std::size_t per_query = 0;
};

// Chooses among the serving candidates; an empty selection means nothing is healthy.
using Policy = std::function<Selection(const PoolSpec& spec, std::span<const Candidate> candidates)>;

class PolicyRegistry {
 public:
  void add(const std::string& shape, Policy policy) { policies_[shape] = std::move(policy); }
  const Policy* find(const std::string& shape) const;
  bool knows(const std::string& shape) const { return find(shape) != nullptr; }
  std::vector<std::string> shapes() const;

 private:
  std::map<std::string, Policy> policies_;
};

// failover, all-healthy, weighted.
void register_builtin_policies(PolicyRegistry& registry);

// The serving candidates, in configured order.
std::vector<Candidate> serving_only(std::span<const Candidate> candidates);

}  // namespace cutover::pool
