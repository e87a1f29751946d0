// Writes a zone's records as a master file (RFC 1035 §5) that the zone loader reads back:
// absolute owner names, explicit TTL and class on every line. Stateless; thread-safe.
#pragma once

#include <string>

#include "base/result.h"
#include "store/zone_data.h"

namespace cutover::store {

std::string zone_to_text(const ZoneData& data);
// Replaces `path` atomically: writes a temp file beside it, fsyncs it, renames it over
// `path` and fsyncs the directory, so a crash leaves the old file or the new one.
base::Status write_zone_file(const std::string& path, const ZoneData& data);

}  // namespace cutover::store
