// AnswerBuilder: turns a HealthSnapshot into the PoolAnswers the engine serves, applying
// each pool's shape, its min-healthy threshold and its when-all-down policy per address
// family, and reports every entry into and exit from the panic and all-down states. Not thread-safe: call from one thread at a
// time (the HealthMonitor listener is serialised by the monitor's lock).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "health/health_snapshot.h"
#include "pool/policy.h"
#include "pool/pool_answers.h"
#include "pool/pool_spec.h"

namespace cutover::pool {

// A pool family entering (all_down) or leaving the all-down state, or, with `panic`, the
// panic state of min-healthy (all_down then says entering or leaving it).
struct AllDownEvent {
  std::string pool;
  dns::RRType type = dns::RRType::A;
  bool all_down = false;
  AllDownPolicy policy = AllDownPolicy::kFailOpen;
  bool panic = false;
  std::size_t up = 0;         // endpoints of the family up at the change
  std::size_t threshold = 0;  // min-healthy as a number of endpoints (panic events)
  std::string region;         // steered pools: the region whose clients' answer changed
  // With `moved`: the region's clients are now answered from `served_from` (another region,
  // "" for the whole pool, or their own region again).
  bool moved = false;
  std::string served_from;
};

class AnswerBuilder {
 public:
  // `registry` must outlive the builder; every spec's shape must be registered in it.
  AnswerBuilder(const PolicyRegistry& registry, std::vector<PoolSpec> specs);

  const std::vector<PoolSpec>& specs() const { return specs_; }
  // Builds the answers; `events` receives the all-down changes since the previous build.
  std::shared_ptr<const PoolAnswers> build(const health::HealthSnapshot& health, std::vector<AllDownEvent>& events);
  // Keeps all-down state and query counters of pools that stay (a reload).
  void adopt_state_from(const AnswerBuilder& previous);

 private:
  // The family's answer from the endpoints of `region` (nullptr: every endpoint); a CNAME
  // family (hostname endpoints) keeps one member of build_members' choice.
  FamilyAnswer build_family(const PoolSpec& spec, dns::RRType type, const health::HealthSnapshot& health,
                            const std::string* region = nullptr) const;
  // Panic, then the shape, then when-all-down, over the family's endpoints.
  FamilyAnswer build_members(const PoolSpec& spec, dns::RRType type, const health::HealthSnapshot& health,
                             const std::string* region) const;
  // A steered pool's answer for the clients of spec.steering.regions[index]: the first region
  // of its order with an endpoint serving, else the whole pool's answer.
  FamilyAnswer build_region(const PoolSpec& spec, dns::RRType type, const health::HealthSnapshot& health,
                            std::size_t index) const;
  // Counts panics and reports entries into and exits from panic and all-down for one family.
  // With a region, all-down is left to the caller (a region is all down only when the whole pool
  // is) and a change of the region answered from is reported instead.
  void track(const PoolSpec& spec, FamilyAnswer& family, const std::string& region, std::vector<AllDownEvent>& events);

  const PolicyRegistry& registry_;
  std::vector<PoolSpec> specs_;
  std::map<std::string, bool> all_down_;  // by "pool/TYPE"
  std::map<std::string, bool> panic_;     // by "pool/TYPE"
  std::map<std::string, std::uint64_t> panics_;  // entries into panic, by "pool/TYPE"
  std::map<std::string, std::string> served_from_;  // steered pools: by "pool/TYPE@region"
  std::map<std::string, std::shared_ptr<PoolCounters>> counters_;
};

// True for an IPv6 address text (answered as AAAA).
bool is_ipv6_address(const std::string& address);
// A or AAAA rdata for a numeric address; kMalformed otherwise.
base::Result<dns::Rdata> address_rdata(const std::string& address);

}  // namespace cutover::pool
