// UnusableZones: the secondary zones that must not be answered from (no copy yet, or expired:
// RFC 1035 §4.3.5 "the zone data is no longer authoritative"), and the SERVFAIL the query
// path gives for names inside them. The worker thread replaces the set; listener threads
// read it. Thread-safe; the check costs one relaxed atomic load while every zone is usable.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "dns/message.h"
#include "dns/name.h"
#include "base/published.h"

namespace cutover::replication {

// A zone that must not be answered from; `expired` when it had a copy (else it never got
// one), which tells the Extended DNS Error of the SERVFAIL.
struct UnusableZone {
  dns::Name origin;
  bool expired = false;
  bool operator==(const UnusableZone&) const = default;
};

class UnusableZones {
 public:
  // Replaces the set with `zones` (empty: every zone is usable).
  void set(std::vector<UnusableZone> zones);
  // True, with a SERVFAIL reply in `response`, when `query` is a standard query (any qtype,
  // transfers included) for a name inside an unusable zone.
  bool answer(std::span<const std::uint8_t> query, std::vector<std::uint8_t>& response) const;
  // The zones now unusable (the console's replication panel).
  std::vector<UnusableZone> current() const;

 private:
  std::atomic<bool> any_{false};
  base::Published<std::vector<UnusableZone>> zones_;
};

// The SERVFAIL reply to `query` (ID, opcode, RD and question copied; OPT when it had one,
// with an Extended DNS Error (RFC 8914): Not Ready (14) for a zone never transferred,
// Invalid Data (24) for an expired one).
std::vector<std::uint8_t> servfail_reply(const dns::Message& query, bool expired);

}  // namespace cutover::replication
