// Steps shared by the experiments: filling a cache at a controlled sub-second phase, and
// watching a resolver until it returns a given address. Thread-safe (per-case state only).
#pragma once

#include <cstdint>
#include <string>

#include "lab/experiments/experiment.h"

namespace cutover::lab {

// Every fill happens this far into a realtime second: resolvers count TTLs in whole seconds,
// so a fixed phase gives every case the same rounding, and the report states it.
constexpr double kFillPhase = 0.5;
constexpr const char* kOldAddress = "192.0.2.1";
constexpr const char* kNewAddress = "192.0.2.2";
constexpr std::int64_t kNs = 1'000'000'000;

inline std::int64_t after(std::int64_t at_ns, double seconds) {
  return at_ns + static_cast<std::int64_t>(seconds * 1e9);
}

// Asks `name`/`type` at the next kFillPhase and records the reply as the case's fill.
// Returns the monotonic time the reply arrived (when the resolver's entry already existed).
std::int64_t fill_cache(CaseContext& context, CaseResult& result, const std::string& name,
                        dns::RRType type = dns::RRType::A);

// Polls `name` A from `first_ns` every `step` until it returns `address` or `end_ns` passes;
// appends the observations (relative to `reference_ns`) and sets the first_answer rule.
void watch_for_address(CaseContext& context, CaseResult& result, const std::string& name, const std::string& address,
                       std::int64_t reference_ns, std::int64_t first_ns, double step, std::int64_t end_ns);

// Records how many queries for `name`/`type` the authority has received, under details[key].
void record_authority_count(CaseContext& context, CaseResult& result, const std::string& name,
                            const std::string& type, const std::string& key);

Expectation point(const std::string& label, double value);

}  // namespace cutover::lab
