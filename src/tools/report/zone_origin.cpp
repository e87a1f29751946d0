// Deriving a zone's origin from its file name when the operator gives none.
#include "tools/report/zone_origin.h"

#include <filesystem>

#include <fmt/format.h>

namespace cutover::tools {
namespace {

std::string origin_from_file_name(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (const char* suffix : {".zone", ".db", ".txt"}) {
    if (name.ends_with(suffix)) return name.substr(0, name.size() - std::string_view(suffix).size());
  }
  if (name.starts_with("db.")) return name.substr(3);
  return name;
}

}  // namespace

base::Result<dns::Name> zone_origin(const std::string& given, const std::string& zone_file) {
  std::string text = given.empty() ? origin_from_file_name(zone_file) : given;
  auto origin = dns::Name::from_text(text.ends_with('.') ? text : text + ".");
  if (!origin) {
    return base::make_error(origin.error().code, fmt::format("bad origin '{}': {}", text, origin.error().message));
  }
  return origin;
}

}  // namespace cutover::tools
