// RFC 2136 §3.2 prerequisites: the format check (done before taking the write lock) and the
// evaluation against the zone's current data (done under the store's lock, through the
// write's precondition hook, so nothing changes between check and write). Pure functions;
// thread-safe.
#pragma once

#include <optional>

#include "store/write_result.h"
#include "store/zone_data.h"
#include "update/update_message.h"

namespace cutover::update {

// FORMERR for a wrong TTL, class, type or rdata length; NOTZONE for a name outside the zone.
std::optional<store::PreconditionFailure> check_prerequisite_format(const UpdateMessage& message);

// The first failing prerequisite as its rcode (YXDOMAIN, NXDOMAIN, YXRRSET, NXRRSET) and a
// message naming it; nullopt when all hold. Expects check_prerequisite_format to have passed.
std::optional<store::PreconditionFailure> evaluate_prerequisites(const UpdateMessage& message,
                                                                 const store::ZoneData& zone);

}  // namespace cutover::update
