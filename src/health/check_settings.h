// CheckSettings: how one endpoint is probed: the type, the timing and thresholds every
// type shares, and the type's own options, parsed and owned by the probe type
// (probe_options.h). Value type; copies share the immutable options; thread-compatible.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "health/probe_options.h"

namespace cutover::health {

// Defaults give D = [(F-1)·I + T, F·I + T] = [22 s, 32 s]: as fast as Route 53's "fast"
// 10 s checks, while two tolerated failures keep one lost probe from flapping an answer.
constexpr std::chrono::milliseconds kDefaultInterval{10'000};
constexpr std::chrono::milliseconds kDefaultTimeout{2'000};
constexpr int kDefaultFall = 3;
constexpr int kDefaultRise = 2;

struct CheckSettings {
  std::string type = "tcp";
  std::chrono::milliseconds interval = kDefaultInterval;
  std::chrono::milliseconds timeout = kDefaultTimeout;
  int fall = kDefaultFall;  // consecutive failures to go down
  int rise = kDefaultRise;  // consecutive passes to come back up
  std::optional<std::uint16_t> port;  // probe port when it differs from the endpoint's
  // `check-address`: probe this address while answers hand out the endpoint's (NAT, an
  // internal address, a health sidecar: PowerDNS issue 7468). Empty: the endpoint's.
  std::string address;
  // `resolver:`: the DNS servers ("ADDRESS:PORT") that resolve a hostname endpoint's name
  // before each probe; empty: /etc/resolv.conf's (ResolvingProbe).
  std::vector<std::string> resolvers;
  // `invert: true`: a pass counts as a failure and a failure as a pass (a maintenance
  // flag that is "up" while the endpoint must not serve); an error stays an error.
  bool invert = false;
  // The type's own options; null means the type's defaults.
  std::shared_ptr<const ProbeOptions> options;

  // The options as the type's struct; null when unset or of another type.
  template <typename Options>
  const Options* options_as() const {
    return dynamic_cast<const Options*>(options.get());
  }
};

}  // namespace cutover::health
