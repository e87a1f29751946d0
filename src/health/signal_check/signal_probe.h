// The `signal` probe: reads a pushed external signal (health/signal/signal_board.h) by
// name. Up is a pass, down a failure, a signal never pushed or past its TTL an error
// (unknown). SignalOptions is a plain value type; the probe only reads the shared,
// thread-safe board.
#pragma once

#include <string>

#include "health/probe.h"
#include "health/signal/signal_board.h"

namespace cutover::health {

struct SignalOptions : ProbeOptions {
  std::string signal;  // the signal's name; empty: the endpoint's address ("192.0.2.10")
};

// One reading of `board` at `now` for the signal `name`.
ProbeResult read_signal(const SignalBoard& board, const std::string& name, base::SteadyTime now);

}  // namespace cutover::health
