// Loading a zone from a master file: parse, run the semantic checks, build the Zone.
// Stateless; thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dns/name.h"
#include "zone/diagnostic.h"
#include "zone/zone.h"

namespace cutover::zone {

struct ZoneLoad {
  std::shared_ptr<const Zone> zone;  // null when any diagnostic is an error
  std::vector<Diagnostic> diagnostics;
};

ZoneLoad load_zone_file(const dns::Name& origin, const std::string& path, const OrderPolicy& order = {});
// The same from text in memory; `file_label` names it in diagnostics and $INCLUDE paths
// are resolved relative to the current directory.
ZoneLoad load_zone_text(const dns::Name& origin, std::string_view text, const std::string& file_label,
                        const OrderPolicy& order = {});

}  // namespace cutover::zone
