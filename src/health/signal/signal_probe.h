// The `signal` probe: reads a pushed external signal (health/signal_board.h) by name. Up is
// a pass, down a failure, a signal never pushed or past its TTL an error (unknown).
// SignalOptions is a plain value type; the probe only reads the shared, thread-safe board.
#pragma once

#include <memory>
#include <string>

#include "health/probe.h"
#include "health/signal_board.h"

namespace cutover::health {

struct SignalOptions : ProbeOptions {
  std::string signal;  // the signal's name; empty: the probed address ("192.0.2.10")
};

// `signal` (shared with the file probe): a name of 1 to 64 of [A-Za-z0-9._-].
void read_signal_name(std::string& name, const std::string& key, const OptionReader& reader);

// The signal a check reads: its own name, else the probed address.
inline std::string signal_name(const std::string& configured, const Target& target) {
  return configured.empty() ? target.address : configured;
}

// One reading of `board` at `now` for the signal `name`.
ProbeResult read_signal(const SignalBoard& board, const std::string& name, base::SteadyTime now);

}  // namespace cutover::health
