// AnswerPlan: what a response will contain, decided before any byte is written
// (section, owner, RRset). Built by lookup.cpp, encoded by encode.cpp. Plain value type.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dns/message.h"
#include "dns/name.h"
#include "dns/types.h"
#include "zone/zone.h"

namespace cutover::auth {

struct DynamicAnswer;

struct PlannedRRset {
  dns::Name owner;
  dns::RRType type = dns::RRType::A;
  std::uint32_t ttl = 0;
  // Either points into a zone (shared, read-only) or owns synthesized rdata (DNAME's CNAME).
  const zone::RRset* source = nullptr;
  std::vector<dns::Rdata> synthesized;
  // A required RRset that does not fit sets TC; an optional one is silently left out.
  bool required = true;
};

struct AnswerPlan {
  dns::Rcode rcode = dns::Rcode::kNoError;
  bool authoritative = false;
  std::vector<PlannedRRset> answer;
  std::vector<PlannedRRset> authority;
  std::vector<PlannedRRset> additional;
  const DynamicAnswer* dynamic = nullptr;  // set when a dynamic answer (a pool) answered
  // Set when the answer was chosen by the client's network: the leading bits that chose it,
  // sent back as the Client Subnet scope (RFC 7871 §7.2.1); unset answers are the same for all.
  std::optional<std::uint8_t> subnet_scope;
};

}  // namespace cutover::auth
