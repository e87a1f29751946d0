// Parser for RFC 1035 master files (with the BIND/NSD/Knot extensions: TTL units, RFC 3597
// generic types, $INCLUDE with origin). Produces records with their source locations plus
// every problem found, continuing after errors up to a limit. Stateless; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dns/message.h"
#include "dns/name.h"
#include "zone/diagnostic.h"

namespace cutover::zone {

// A record and where its entry starts (its first token). The file's name is shared by every
// record read from that file rather than copied into each: one allocation per file, not per
// record, for a zone of a million lines.
struct ParsedRecord {
  dns::ResourceRecord record;
  std::shared_ptr<const std::string> file;  // never null for a record the parser produced
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  SourceLocation location() const { return SourceLocation{file ? *file : std::string(), line, column}; }
};

struct ParseResult {
  std::vector<ParsedRecord> records;  // only the records that parsed cleanly, in file order
  std::vector<Diagnostic> diagnostics;
};

struct ParseLimits {
  std::size_t max_errors = 50;         // parsing stops once this many errors are reported
  std::size_t max_include_depth = 16;  // nested $INCLUDE levels below the top file
};

// Reads `path`; relative $INCLUDE paths are taken from the including file's directory.
ParseResult parse_master_file(const dns::Name& origin, const std::string& path, const ParseLimits& limits = {});
// Reads text held in memory; `file_label` names it in diagnostics and relative $INCLUDE
// paths are taken from the current directory.
ParseResult parse_master_text(const dns::Name& origin, std::string_view text, const std::string& file_label,
                              const ParseLimits& limits = {});

}  // namespace cutover::zone
