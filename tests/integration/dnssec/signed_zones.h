// The pre-signed test zones the DNSSEC integration tests serve: tests/zones/signed-*.test.zone,
// made by tests/fixtures/make_signed_zones.sh (NSEC, NSEC3 with salt and iterations, NSEC3
// opt-out; the same shapes in each). Header-only; test-only.
#pragma once

#include <string>
#include <vector>

namespace cutover::testing {

inline const std::vector<std::string> kSignedZones = {"signed-nsec.test.", "signed-nsec3.test.", "signed-optout.test."};

// The fixture file of a zone of kSignedZones.
inline std::string signed_zone_file(const std::string& origin) {
  return std::string(CUTOVER_SOURCE_DIR) + "/tests/zones/" + origin.substr(0, origin.size() - 1) + ".zone";
}

}  // namespace cutover::testing
