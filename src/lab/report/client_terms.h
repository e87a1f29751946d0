// The client terms of the cutover sum (C, the runtime's own cache; R, connection reuse) as one
// lab run measured them (E6 and E11 on --clients), for `cutover calc|plan|explain
// --lab-results` (docs/tools.md, "Client terms from the lab"). Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lab/runner.h"

namespace cutover::lab {

struct LabClientTerms {
  std::string id;       // the lab's client id ("java", "curl-long")
  std::string runtime;  // e.g. "OpenJDK, HttpURLConnection"
  std::string version;  // the runtime's version as the lab read it
  std::string setting;  // the cache setting in effect
  // C: the longest the client kept an address on its own clock, seconds; nullopt when it
  // never reached the new origin within the E6 run (no bound was observed).
  std::optional<double> cache;
  std::string cache_basis;  // how C was read from the E6 case, with its figures
  // R, from the E11 case with the chosen origin behaviour: extra seconds a reused connection
  // kept reaching the old origin beyond E6's switch; nullopt when it never left within the run.
  bool reuse_measured = false;
  std::optional<double> reuse;
  std::string reuse_basis;
};

// The E11 origin behaviour R is read from by default: the worst one, an origin that keeps
// connections open (lab/clients/origin.h, behaviour_text).
inline constexpr const char* kDefaultReuseBehaviour = "keeps the connection open";

// Every client with a measured E6 case in `results`, in the order of the cases. A client whose
// E6 case could not be measured (not supported, error) is left out.
std::vector<LabClientTerms> client_terms(const RunResults& results,
                                         const std::string& reuse_behaviour = kDefaultReuseBehaviour);

}  // namespace cutover::lab
