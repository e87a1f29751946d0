// The entry points of master-file parsing (master_parser.h): one MasterReader over a file
// (with its $INCLUDEs) or over text held in memory.
#include "zone/master_parser.h"

#include <filesystem>
#include <optional>

#include "zone/master_reader.h"

namespace cutover::zone {

ParseResult parse_master_file(const dns::Name& origin, const std::string& path, const ParseLimits& limits) {
  ParseResult result;
  MasterReader reader(origin, limits, result);
  reader.read_file(path, std::nullopt);
  return result;
}

ParseResult parse_master_text(const dns::Name& origin, std::string_view text, const std::string& file_label,
                              const ParseLimits& limits) {
  ParseResult result;
  MasterReader reader(origin, limits, result);
  reader.read_text(text, file_label, std::filesystem::path());
  return result;
}

}  // namespace cutover::zone
