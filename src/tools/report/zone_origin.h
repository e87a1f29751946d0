// The origin a tool uses for a zone file: the one given, or one read from the file name
// (example.test.zone, example.test.db, db.example.test). Stateless; thread-safe.
#pragma once

#include <string>

#include "base/result.h"
#include "dns/name.h"

namespace cutover::tools {

// `given` wins when not empty; a missing trailing dot is added.
base::Result<dns::Name> zone_origin(const std::string& given, const std::string& zone_file);

}  // namespace cutover::tools
