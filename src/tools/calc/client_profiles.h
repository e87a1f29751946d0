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

// A client runtime as a lab run measured it (`cutover lab run --clients`, E6 and E11). The
// command line reads results.json through the lab and hands these here, so tools does not
// depend on the lab (docs/architecture.md).
struct MeasuredClient {
  std::string id;       // the lab's client id, e.g. "java"
  std::string runtime;  // runtime and API
  std::string version;
  std::string setting;
  std::optional<double> cache_seconds;  // C; nullopt: no re-resolution seen within the run
  std::string cache_basis;
  bool reuse_measured = false;
  std::optional<double> reuse_seconds;  // R; nullopt: the reused connection never left
  std::string reuse_basis;
  std::string source;  // the results file and when the run started
};

// The client terms calc, plan and explain use for one client name.
struct ClientTerms {
  std::string name;
  double cache = 0;             // C, seconds; infinity for a client that does not re-resolve
  std::optional<double> reuse;  // R, seconds (infinity: unbounded); nullopt when not measured
  std::string basis;            // runtime, version, setting and how the figures were found
  std::string source;           // the lab run, or the paper's table
  bool measured_here = false;   // from a lab run rather than the built-in profiles
};

// A lab client id from `measured` first, then a built-in profile; nullopt for neither.
std::optional<ClientTerms> find_client_terms(std::string_view name, std::span<const MeasuredClient> measured);
// "client terms from ..." for an output: the lab run when one was given, else the paper.
std::string client_terms_source(std::span<const MeasuredClient> measured);

}  // namespace cutover::tools
