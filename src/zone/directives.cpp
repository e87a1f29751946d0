// Master-file directives: $ORIGIN, $TTL and $INCLUDE (RFC 1035 §5.1, RFC 2308 §4).
// $INCLUDE reads the named file with the current state, then restores the origin and
// previous owner of the including file, as RFC 1035 and BIND do; a $TTL set inside stays.
#include <utility>

#include <fmt/format.h>

#include "zone/master_reader.h"

namespace cutover::zone {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (dns::ascii_lower(static_cast<std::uint8_t>(a[i])) != dns::ascii_lower(static_cast<std::uint8_t>(b[i]))) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool MasterReader::check_argument_count(const LogicalLine& line, const Source& source, std::size_t min,
                                        std::size_t max, std::string_view expected) {
  const auto& tokens = line.tokens;
  std::size_t arguments = tokens.size() - 1;
  if (arguments < min) {
    error(end_of(source, line), fmt::format("expected {} after {}, found end of line", expected, tokens[0].text));
    return false;
  }
  if (arguments > max) {
    error(at(source, tokens[max + 1]),
          fmt::format("unexpected '{}': {} takes {}", tokens[max + 1].text, tokens[0].text, expected));
    return false;
  }
  return true;
}

void MasterReader::read_directive(const LogicalLine& line, const Source& source) {
  const auto& tokens = line.tokens;
  std::string_view directive = tokens[0].text;
  if (iequals(directive, "$ORIGIN")) {
    if (!check_argument_count(line, source, 1, 1, "a domain name")) return;
    // A relative $ORIGIN is taken relative to the current one, as BIND does.
    if (auto origin = name_value(tokens[1], source, "$ORIGIN name")) origin_ = std::move(*origin);
  } else if (iequals(directive, "$TTL")) {
    if (!check_argument_count(line, source, 1, 1, "a TTL")) return;
    if (auto ttl = ttl_value(tokens[1], source)) default_ttl_ = ttl;
  } else if (iequals(directive, "$INCLUDE")) {
    if (!check_argument_count(line, source, 1, 2, "a file name and an optional origin")) return;
    read_include(line, source);
  } else if (iequals(directive, "$GENERATE")) {
    error(at(source, tokens[0]), "$GENERATE is not supported: expand it before loading");
  } else {
    error(at(source, tokens[0]), fmt::format("unknown directive '{}'", directive));
  }
}

void MasterReader::read_include(const LogicalLine& line, const Source& source) {
  const auto& tokens = line.tokens;
  std::optional<dns::Name> include_origin;
  if (tokens.size() > 2) {
    include_origin = name_value(tokens[2], source, "$INCLUDE origin");
    if (!include_origin) return;
  }
  if (include_depth_ >= limits_.max_include_depth) {
    error(at(source, tokens[0]), fmt::format("$INCLUDE nested more than {} levels deep", limits_.max_include_depth));
    return;
  }
  std::filesystem::path path(tokens[1].text);
  if (path.is_relative()) path = source.directory / path;

  dns::Name saved_origin = origin_;
  std::optional<dns::Name> saved_owner = previous_owner_;
  if (include_origin) origin_ = *include_origin;
  ++include_depth_;
  read_file(path, at(source, tokens[1]));
  --include_depth_;
  origin_ = std::move(saved_origin);
  previous_owner_ = std::move(saved_owner);
}

}  // namespace cutover::zone
