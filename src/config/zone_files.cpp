// zone_file_bytes: the sizes of a configuration's zone files (zone_files.h).
#include "config/zone_files.h"

#include <filesystem>
#include <system_error>
#include <vector>

#include "config/config.h"

namespace cutover::config {

std::uintmax_t zone_file_bytes(const Config& config) {
  std::uintmax_t total = 0;
  auto add = [&](const std::vector<ZoneConfig>& zones) {
    for (const auto& zone : zones) {
      if (zone.text) continue;
      std::error_code error;
      auto size = std::filesystem::file_size(zone.file, error);
      if (!error) total += size;
    }
  };
  add(config.zones);
  for (const auto& view : config.views) add(view.zones);
  return total;
}

}  // namespace cutover::config
