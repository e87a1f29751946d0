// RFC 2136 §3.4: the update section's prescan (FORMERR, NOTZONE) and its translation into
// store edits (add RR, delete RRset, delete all RRsets of a name, delete an RR). The SOA and
// apex NS rules of §3.4.2 are the store's (ZoneData::apply), which reports such edits as
// ignored. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <vector>

#include "store/write_result.h"
#include "store/zone_data.h"
#include "update/update_message.h"

namespace cutover::update {

std::optional<store::PreconditionFailure> prescan_updates(const UpdateMessage& message);

// One edit per update RR, in message order (§3.4.2: processed in order).
std::vector<store::Edit> update_edits(const UpdateMessage& message);

}  // namespace cutover::update
