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

#include "health/probe_options.h"
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

// Reads one of a shape's keys of a pool mapping into the spec; throws through reader.fail().
using ShapeOptionRead = std::function<void(PoolSpec& spec, const std::string& key, const health::OptionReader& reader)>;

// One pool shape: its policy and the keys of a pool mapping it reads itself.
struct Shape {
  std::string name{};
  Policy choose{};
  std::vector<std::string> option_keys{};
  ShapeOptionRead read_option{};  // null when option_keys is empty
  // Each query draws its own answer, which zone records cannot express (serve: materialize).
  bool draws_per_query = false;
};

class PolicyRegistry {
 public:
  void add(Shape shape);
  const Policy* find(const std::string& shape) const;
  const Shape* find_shape(const std::string& shape) const;
  bool knows(const std::string& shape) const { return find(shape) != nullptr; }
  std::vector<std::string> shapes() const;  // in name order
  // The shapes that declare `key` among their options, in name order.
  std::vector<std::string> shapes_with_option(const std::string& key) const;
  // Every shape's keys, each once, in registration order.
  std::vector<std::string> option_keys() const;
  // The shapes whose answer is the same for every query, in registration order.
  std::vector<std::string> fixed_answer_shapes() const;

 private:
  std::map<std::string, Shape> shapes_;
  std::vector<std::string> order_;  // registration order
};

// The pool shapes cutover ships, from the one table in policy_registry.cpp: failover,
// all-healthy, weighted.
void register_builtin_policies(PolicyRegistry& registry);

// `max-answers`, read the same way by every built-in shape: a whole number from 1 to 64.
void read_max_answers(PoolSpec& spec, const health::OptionReader& reader);

// The serving candidates, in configured order.
std::vector<Candidate> serving_only(std::span<const Candidate> candidates);

}  // namespace cutover::pool
