// ZoneSigner: the lab's offline signer for E14's signed three-tier world. It makes ECDSA
// P-256 keys with dnssec-keygen and signs master-file text with dnssec-signzone (bind9-utils,
// NSEC, one combined signing key per generation: the KSK flag, signing every RRset), the way
// an operator's signer hands a zone to cutover (docs/dnssec.md). The lab authority then serves
// the signed text as given (PUT /lab/zone-files). Thread-safe: every call works on files of
// its own in the signer's directory.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"

namespace cutover::lab {

struct LabKey {
  std::string zone;    // its owner, e.g. "c1.e14."
  std::string stem;    // the key files' path without .key/.private
  std::uint16_t tag = 0;
  std::string ds;      // its DS rdata with a SHA-256 digest ("TAG 13 2 HEX"), as the parent publishes it
};

class ZoneSigner {
 public:
  explicit ZoneSigner(std::string dir) : dir_(std::move(dir)) {}

  // A new key for `zone` whose DNSKEY record carries TTL `dnskey_ttl`.
  base::Result<LabKey> make_key(const std::string& zone, std::uint32_t dnskey_ttl);
  // `text` (a master file for `zone` without DNSKEYs) with the DNSKEYs of `keys` added and
  // every RRset signed by each of them; signatures valid from an hour ago for 30 days.
  base::Result<std::string> sign(const std::string& zone, const std::string& text, const std::vector<LabKey>& keys);

  // Whether the tools are installed (the fixture says why it cannot start otherwise).
  static bool available();

 private:
  std::string dir_;
  std::atomic<int> files_{0};
};

}  // namespace cutover::lab
