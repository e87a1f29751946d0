// The authoritative answer engine: turns one query packet into one response packet using
// an immutable snapshot of the served zones. Thread-safe: many threads may answer at once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "dns/name.h"
#include "dns/types.h"
#include "zone/zone.h"

namespace cutover::auth {

enum class Transport { kUdp, kTcp };

// The zones served at one moment. Built once, then only read; swapped whole on reload.
class ZoneSet {
 public:
  explicit ZoneSet(std::vector<std::shared_ptr<const zone::Zone>> zones);

  // The zone with the longest origin that contains `name`, or nullptr.
  const zone::Zone* find(const dns::Name& name) const;
  const std::vector<std::shared_ptr<const zone::Zone>>& zones() const { return zones_; }

 private:
  std::vector<std::shared_ptr<const zone::Zone>> zones_;  // longest origin first
};

// What happened to one query, for logs and metrics.
struct QueryOutcome {
  bool respond = false;  // false: drop silently (unreadable header, or a response packet)
  dns::Rcode rcode = dns::Rcode::kNoError;
  dns::Name qname;
  dns::RRType qtype = dns::RRType::A;
};

// Largest UDP payload we ever advertise or send (DNS flag day 2020).
constexpr std::uint16_t kMaxUdpPayload = 1232;

QueryOutcome answer_query(const ZoneSet& zones, std::span<const std::uint8_t> query, Transport transport,
                          std::vector<std::uint8_t>& response);

}  // namespace cutover::auth
