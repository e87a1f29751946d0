// Semantic checks over parsed master-file records, before the Zone is built: apex SOA/NS,
// CNAME conflicts, out-of-zone data, RRset TTLs, glue, and data hidden below a delegation or
// DNAME. Each finding is a Diagnostic at the offending record. Stateless; thread-safe.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "dns/name.h"
#include "zone/diagnostic.h"
#include "zone/master_parser.h"

namespace cutover::zone {

// `file` locates findings that belong to no single record (a missing SOA).
std::vector<Diagnostic> check_zone_records(const dns::Name& origin, std::span<const ParsedRecord> records,
                                           const std::string& file);

class RecordIndex;
// The same with `index` already built over `records`, so a loader can hand its owner
// numbering on to Zone::build afterwards.
std::vector<Diagnostic> check_zone_records(const dns::Name& origin, std::span<const ParsedRecord> records,
                                           const RecordIndex& index, const std::string& file);

}  // namespace cutover::zone
