// The `signal:` key that `signal` and `file` checks share: which signal (or file line) a
// check reads. Each probe parses it through this one function, so both refuse the same
// names with the same text. Pure functions; thread-safe.
#pragma once

#include <string>

#include "health/probe.h"
#include "health/probe_options.h"

namespace cutover::health {

// `signal`: a name of 1 to 64 of [A-Za-z0-9._-] (valid_signal_name), else reader.fail().
void read_signal_name(std::string& name, const std::string& key, const OptionReader& reader);

// The signal a check reads: its own name, else the endpoint's address ("192.0.2.10"),
// which is the answered one, not a check-address: a signal speaks of the endpoint.
inline std::string signal_name(const std::string& configured, const Target& target) {
  if (!configured.empty()) return configured;
  return target.endpoint.empty() ? target.address : target.endpoint;
}

}  // namespace cutover::health
