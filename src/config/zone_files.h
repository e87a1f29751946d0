// The zone files a configuration names, measured before they load: what sizes the heap for
// the load (cmd's huge-page restart, src/cmd/huge_page_heap.h; the server's base::LoadHeap).
#pragma once

#include <cstdint>

namespace cutover::config {

struct Config;

// The bytes of the zone files `config` names, the top-level zones' and every view's; a zone
// given as text counts nothing, and neither does a file that cannot be read.
std::uintmax_t zone_file_bytes(const Config& config);

}  // namespace cutover::config
