// Turns lexed master-file entries into records: owner, TTL/class/type fields in either
// order, rdata through the dns codecs, and BIND's rules for records written without a TTL.
#include "zone/master_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <span>
#include <utility>

#include <fmt/format.h>

#include "dns/types.h"
#include "zone/ttl_text.h"

namespace cutover::zone {
namespace {

// "expected a TTL, class or type, found 'x'" listing only the fields still allowed.
std::string expected_fields(bool have_ttl, bool have_class, std::string_view found) {
  std::string_view wanted = have_ttl ? (have_class ? "a type" : "a class or type")
                                     : (have_class ? "a TTL or type" : "a TTL, class or type");
  return fmt::format("expected {}, found {}", wanted, found);
}

std::string quoted_found(const dns::TextToken& token) {
  return token.quoted ? fmt::format("'\"{}\"'", token.text) : fmt::format("'{}'", token.text);
}

// Lines of `text`, counting a last one without a newline. memchr rather than std::count:
// it is vectorised in libc, and this runs over the whole file before parsing.
std::size_t count_lines(std::string_view text) {
  std::size_t lines = 1;
  const char* end = text.data() + text.size();
  for (const char* at = text.data(); at < end; ++lines) {
    const void* newline = std::memchr(at, '\n', static_cast<std::size_t>(end - at));
    if (newline == nullptr) break;
    at = static_cast<const char*>(newline) + 1;
  }
  return lines;
}

enum class ReadStatus { kOk, kOpenFailed, kReadFailed };

// Reads the whole file with read(2) straight into `contents`: sized from fstat so a regular
// file takes one read and no copy, grown as needed for files whose size is not known ahead.
ReadStatus read_whole_file(const std::filesystem::path& path, std::string& contents) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ReadStatus::kOpenFailed;
  struct stat info {};
  std::size_t expected = ::fstat(fd, &info) == 0 && info.st_size > 0 ? static_cast<std::size_t>(info.st_size) : 0;
  // One spare byte, so the read that finds the end needs no second buffer growth.
  contents.resize(expected + 1);
  std::size_t used = 0;
  ReadStatus status = ReadStatus::kOk;
  while (true) {
    if (used == contents.size()) contents.resize(contents.size() * 2);
    ssize_t got = ::read(fd, contents.data() + used, contents.size() - used);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      status = ReadStatus::kReadFailed;
      break;
    }
    used += static_cast<std::size_t>(got);
  }
  ::close(fd);
  contents.resize(used);
  return status;
}

}  // namespace

MasterReader::MasterReader(const dns::Name& origin, const ParseLimits& limits, ParseResult& out)
    : origin_(origin), limits_(limits), out_(out) {}

void MasterReader::error(SourceLocation location, std::string message) {
  out_.diagnostics.push_back(Diagnostic{Severity::kError, std::move(location), std::move(message)});
}

void MasterReader::warning(SourceLocation location, std::string message) {
  out_.diagnostics.push_back(Diagnostic{Severity::kWarning, std::move(location), std::move(message)});
}

bool MasterReader::stopped() {
  if (stopped_) return true;
  for (; counted_ < out_.diagnostics.size(); ++counted_) {
    if (out_.diagnostics[counted_].severity == Severity::kError) ++errors_;
  }
  if (errors_ >= limits_.max_errors) {
    stopped_ = true;
    const SourceLocation& last = out_.diagnostics.back().location;
    error(SourceLocation{last.file, 0, 0}, fmt::format("stopping after {} errors", errors_));
  }
  return stopped_;
}

void MasterReader::read_file(const std::filesystem::path& path, const std::optional<SourceLocation>& included_at) {
  SourceLocation where = included_at.value_or(SourceLocation{path.string(), 0, 0});
  std::error_code ec;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
  if (ec) canonical = path;
  for (const auto& open : include_stack_) {
    if (open == canonical) {
      error(where, fmt::format("$INCLUDE cycle: '{}' is already being read", path.string()));
      return;
    }
  }
  if (std::filesystem::is_directory(path, ec)) {
    error(where, fmt::format("cannot read '{}': it is a directory", path.string()));
    return;
  }
  std::string contents;
  if (ReadStatus status = read_whole_file(path, contents); status != ReadStatus::kOk) {
    error(where, fmt::format("cannot read '{}': {}", path.string(),
                             status == ReadStatus::kOpenFailed ? std::strerror(errno) : "read failed"));
    return;
  }
  include_stack_.push_back(canonical);
  read_text(contents, path.string(), path.parent_path());
  include_stack_.pop_back();
}

void MasterReader::read_text(std::string_view text, const std::string& file, const std::filesystem::path& directory) {
  Source source{file, directory, std::make_shared<const std::string>(file)};
  if (include_depth_ == 0) {
    // A record per line is the common shape, so the line count sizes the result once
    // instead of through repeated doubling (the moves and the peak memory of 1M-record
    // zones). Included files grow it normally: reserving per file could reallocate per file.
    out_.records.reserve(out_.records.size() + count_lines(text));
  }
  Lexer lexer(text, file, out_.diagnostics);
  LogicalLine line;
  while (!stopped() && lexer.next(line)) read_entry(line, source);
}

void MasterReader::read_entry(const LogicalLine& line, const Source& source) {
  const dns::TextToken& first = line.tokens.front();
  if (!line.blank_owner && !first.quoted && first.text.starts_with('$')) {
    read_directive(line, source);
  } else {
    read_record(line, source);
  }
}

std::optional<std::uint32_t> MasterReader::ttl_value(const dns::TextToken& token, const Source& source) {
  auto ttl = parse_ttl(token.text);
  if (!ttl) {
    error(at(source, token), ttl.error().message);
    return std::nullopt;
  }
  if (*ttl > kMaxTtl) {
    warning(at(source, token), fmt::format("TTL {} is above {}; using 0 as BIND does (RFC 2181 §8)", *ttl, kMaxTtl));
    return 0;
  }
  return *ttl;
}

std::optional<dns::Name> MasterReader::name_value(const dns::TextToken& token, const Source& source,
                                                  std::string_view what) {
  if (token.quoted) {
    error(at(source, token), fmt::format("expected a {}, found a quoted string", what));
    return std::nullopt;
  }
  if (token.text == "@") return origin_;
  auto name = dns::Name::from_text(token.text, &origin_);
  if (!name) {
    error(at(source, token), fmt::format("bad {} '{}': {}", what, token.text, name.error().message));
    return std::nullopt;
  }
  return std::move(name).value();
}

void MasterReader::read_record(const LogicalLine& line, const Source& source) {
  const auto& tokens = line.tokens;
  // Where the entry starts, made into a SourceLocation (a copy of the file name) only for a
  // diagnostic: the record itself keeps the shared name.
  const dns::TextToken& first = tokens.front();
  std::size_t i = 0;
  std::optional<dns::Name> owner;
  if (line.blank_owner) {
    if (!previous_owner_) {
      error(at(source, first), "the first record has no owner name (the line starts with a blank)");
      return;
    }
    owner = previous_owner_;
  } else {
    owner = name_value(tokens[0], source, "owner name");
    // Later blank-owner lines refer to this name even if this record turns out bad. A copy
    // assignment, so the previous owner's bytes are overwritten in place, not reallocated.
    previous_owner_ = owner;
    if (!owner) return;
    i = 1;
  }

  std::optional<std::uint32_t> explicit_ttl;
  bool have_class = false;
  for (; i < tokens.size() && !(explicit_ttl && have_class); ++i) {
    const dns::TextToken& token = tokens[i];
    if (token.quoted) break;
    if (!explicit_ttl && looks_like_ttl(token.text)) {
      explicit_ttl = ttl_value(token, source);
      if (!explicit_ttl) return;
      continue;
    }
    if (have_class) break;
    auto klass = dns::class_from_text(token.text);
    if (!klass) break;
    if (*klass != dns::RRClass::IN) {
      error(at(source, token), fmt::format("class {} is not supported: only IN zones are served", token.text));
      return;
    }
    have_class = true;
  }
  if (i >= tokens.size()) {
    error(end_of(source, line), expected_fields(explicit_ttl.has_value(), have_class, "end of line"));
    return;
  }
  const dns::TextToken& type_token = tokens[i];
  auto type = type_token.quoted ? std::nullopt : dns::type_from_text(type_token.text);
  if (!type) {
    error(at(source, type_token), expected_fields(explicit_ttl.has_value(), have_class, quoted_found(type_token)));
    return;
  }
  if (dns::is_meta_type(*type)) {
    error(at(source, type_token), fmt::format("type {} cannot appear in zone data", type_token.text));
    return;
  }

  std::span<const dns::TextToken> rdata_tokens(tokens.begin() + static_cast<std::ptrdiff_t>(i + 1), tokens.end());
  auto rdata = dns::rdata_from_text(*type, rdata_tokens, origin_);
  if (!rdata) {
    std::size_t where = rdata.error().where;
    SourceLocation bad = where < rdata_tokens.size() ? at(source, rdata_tokens[where]) : end_of(source, line);
    error(bad, fmt::format("bad {} rdata: {}", dns::type_to_text(*type), rdata.error().message));
    return;
  }

  std::optional<std::uint32_t> ttl = explicit_ttl;
  if (ttl) {
    last_ttl_ = ttl;
  } else {
    ttl = implicit_ttl(*type, *rdata, source, first);
    if (!ttl) return;
  }
  out_.records.push_back(
      ParsedRecord{dns::ResourceRecord{std::move(*owner), *type, dns::RRClass::IN, *ttl, std::move(rdata).value()},
                   source.shared_file, first.line, first.column});
}

std::optional<std::uint32_t> MasterReader::implicit_ttl(dns::RRType type, const dns::Rdata& rdata,
                                                        const Source& source, const dns::TextToken& first) {
  // BIND's order (lib/dns/master.c): $TTL, else the last explicit TTL, else for a SOA
  // its MINIMUM, which then serves as the default for the rest of the zone.
  if (default_ttl_) return default_ttl_;
  if (last_ttl_) return last_ttl_;
  if (type == dns::RRType::SOA) {
    auto soa = dns::parse_soa(rdata);
    if (soa) {
      default_ttl_ = std::min(soa->minimum, kMaxTtl);
      warning(at(source, first),
              fmt::format("no TTL and no $TTL: using the SOA MINIMUM {} as the default", *default_ttl_));
      return default_ttl_;
    }
  }
  error(at(source, first), "no TTL: the record has none and no $TTL or earlier TTL applies");
  return std::nullopt;
}

}  // namespace cutover::zone
