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
  // The zone node that holds `source` (its RRSIGs are there too); null for synthesized data.
  const zone::Node* node = nullptr;
  std::vector<dns::Rdata> synthesized;
  // A required RRset that does not fit sets TC; an optional one is silently left out.
  bool required = true;
};

// A proof the answer needs when it is signed (RFC 4035 §3.1.3, RFC 5155 §7.2), recorded by the
// lookup at each step and turned into NSEC or NSEC3 records by auth/dnssec.h.
struct DenialNeed {
  enum class Kind : std::uint8_t {
    kNxDomain,        // `name` does not exist and no wildcard answers it
    kNoData,          // `name` exists (`node`, or an empty non-terminal: null) without the type
    kWildcardAnswer,  // `name` was answered from the wildcard `node`
    kWildcardNoData,  // `name` would be answered from the wildcard `node`, which lacks the type
    kReferral,        // a referral to the cut `node`: its DS, or the proof it has none
  };
  Kind kind = Kind::kNxDomain;
  dns::Name name;
  const zone::Node* node = nullptr;
};

struct AnswerPlan {
  dns::Rcode rcode = dns::Rcode::kNoError;
  bool authoritative = false;
  std::vector<PlannedRRset> answer;
  std::vector<PlannedRRset> authority;
  std::vector<PlannedRRset> additional;
  std::vector<DenialNeed> denials;
  const DynamicAnswer* dynamic = nullptr;  // set when a dynamic answer (a pool) answered
  // Set when the answer was chosen by the client's network: the leading bits that chose it,
  // sent back as the Client Subnet scope (RFC 7871 §7.2.1); unset answers are the same for all.
  std::optional<std::uint8_t> subnet_scope;
};

}  // namespace cutover::auth
