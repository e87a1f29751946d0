// MasterReader: the state of one master-file parse (origin, default TTL, previous owner,
// $INCLUDE stack) and the rules that turn lexed entries into records. Internal to the
// parser; one instance per parse; not thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dns/name.h"
#include "zone/lexer.h"
#include "zone/master_parser.h"

namespace cutover::zone {

class MasterReader {
 public:
  // `out` must outlive the reader; records and diagnostics are appended to it.
  MasterReader(const dns::Name& origin, const ParseLimits& limits, ParseResult& out);

  // Reads source text; relative $INCLUDE paths are resolved against `directory`.
  void read_text(std::string_view text, const std::string& file, const std::filesystem::path& directory);
  // Reads a file. `included_at` is the $INCLUDE that named it (nullopt for the top file)
  // and locates the error when the file cannot be read.
  void read_file(const std::filesystem::path& path, const std::optional<SourceLocation>& included_at);

 private:
  struct Source {
    std::string file;
    std::filesystem::path directory;
    std::shared_ptr<const std::string> shared_file;  // `file` once for all its records
  };

  void read_entry(const LogicalLine& line, const Source& source);
  void read_record(const LogicalLine& line, const Source& source);
  // Decides the TTL of a record written without one; nullopt after reporting an error.
  std::optional<std::uint32_t> implicit_ttl(dns::RRType type, const dns::Rdata& rdata, const Source& source,
                                            const dns::TextToken& first);
  // $ORIGIN, $TTL, $INCLUDE (directives.cpp).
  void read_directive(const LogicalLine& line, const Source& source);
  void read_include(const LogicalLine& line, const Source& source);
  // Parses a TTL token; values above 2^31-1 become 0 with a warning (RFC 2181 §8).
  std::optional<std::uint32_t> ttl_value(const dns::TextToken& token, const Source& source);
  // A domain name token relative to the current origin; "@" is the origin itself.
  std::optional<dns::Name> name_value(const dns::TextToken& token, const Source& source, std::string_view what);
  // Reports an error if a directive has more or fewer arguments than allowed.
  bool check_argument_count(const LogicalLine& line, const Source& source, std::size_t min, std::size_t max,
                            std::string_view expected);

  static SourceLocation at(const Source& source, const dns::TextToken& token) {
    return SourceLocation{source.file, token.line, token.column};
  }
  static SourceLocation end_of(const Source& source, const LogicalLine& line) {
    return SourceLocation{source.file, line.end_line, line.end_column};
  }
  void error(SourceLocation location, std::string message);
  void warning(SourceLocation location, std::string message);
  // True once the error limit is reached; further input is ignored.
  bool stopped();

  dns::Name origin_;
  std::optional<std::uint32_t> default_ttl_;  // from $TTL, or from the SOA MINIMUM
  std::optional<std::uint32_t> last_ttl_;     // the last explicit TTL (RFC 1035 §5.1)
  std::optional<dns::Name> previous_owner_;
  std::vector<std::filesystem::path> include_stack_;  // canonical paths of the files being read
  std::size_t include_depth_ = 0;
  ParseLimits limits_;
  ParseResult& out_;
  std::size_t counted_ = 0;  // diagnostics already scanned by stopped()
  std::size_t errors_ = 0;
  bool stopped_ = false;
};

}  // namespace cutover::zone
