// Checks tied to zone cuts: data below a DNAME (error), data occluded by a delegation
// (warning) and in-zone NS targets without addresses (missing glue, warning).
// Stateless; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "dns/name.h"
#include "zone/diagnostic.h"
#include "zone/record_index.h"

namespace cutover::zone {

void check_delegations(const dns::Name& origin, const RecordIndex& index, const std::string& file,
                       std::vector<Diagnostic>& out);

}  // namespace cutover::zone
