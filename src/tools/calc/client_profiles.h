// Client cache profiles: how long a runtime keeps an address on its own clock (the C term
// of the cutover sum), with the measured figures of docs/tools.md ("cutover calc") and where they come from.
// Immutable built-in data; thread-safe.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cutover::tools {

struct ClientProfile {
  std::string_view name;      // e.g. "openjdk21-default"
  std::string_view runtime;   // build and API as measured
  std::string_view setting;   // the cache setting in effect
  // Longest time the client keeps an address, seconds; nullopt when it did not re-resolve
  // within the measured run (Java networkaddress.cache.ttl=-1).
  std::optional<double> cache_seconds;
  std::string_view measured;  // what the lab observed, verbatim figures
  std::string_view source;
};

std::span<const ClientProfile> client_profiles();
const ClientProfile* find_client_profile(std::string_view name);

}  // namespace cutover::tools
