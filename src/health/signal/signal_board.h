// SignalBoard: external health signals pushed through the control API (`PUT /signals/NAME`:
// a state and a TTL), read by `signal` checks (health/signal_check/). It is not a probe:
// the control API's routes (pool/service/signal_routes.cpp) write it and the signal probe
// reads it, and neither includes the other. A signal past its TTL, or
// never set, is unknown: the check reports an error, which counts as unknown, never as a
// verdict (a pusher that died must not keep an endpoint up or down forever). Times are
// given by the caller (fake-clock testable). Thread-safe: the lock lives inside.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/clock.h"

namespace cutover::health {

enum class SignalState { kUp, kDown };
const char* signal_state_to_text(SignalState state);
std::optional<SignalState> parse_signal_state(std::string_view text);  // "up"/"down", any case

// Longest TTL a pushed signal may carry: a day (re-push to keep it longer).
constexpr std::chrono::hours kMaxSignalTtl{24};

// A signal name: 1 to 64 of [A-Za-z0-9._-] (it is part of a URL path and a file line).
bool valid_signal_name(std::string_view name);

struct SignalEntry {
  std::string name;
  SignalState state = SignalState::kUp;
  base::SteadyTime expires;
  std::chrono::system_clock::time_point set_at;
  std::string who;  // "api@127.0.0.1", for GET /signals
};

class SignalBoard {
 public:
  void set(const std::string& name, SignalState state, std::chrono::milliseconds ttl, base::SteadyTime now,
           std::chrono::system_clock::time_point wall, std::string who);
  bool erase(const std::string& name);  // false when it was not set
  // The state, or nullopt when never set or expired at `now`.
  std::optional<SignalState> get(const std::string& name, base::SteadyTime now) const;
  // Every signal still set at `now` (expired ones are dropped), by name.
  std::vector<SignalEntry> list(base::SteadyTime now);

 private:
  mutable std::mutex mutex_;
  std::map<std::string, SignalEntry> signals_;
};

}  // namespace cutover::health
