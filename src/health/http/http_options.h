// The options of the http and https probes, and the reading of their keys of a check
// mapping. HttpOptions is a plain value type; read_http_option is stateless.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "health/probe_options.h"

namespace cutover::health {

constexpr std::size_t kDefaultBodyLimit = 64 * 1024;

struct StatusRange {
  int low = 200;
  int high = 399;
};

struct HttpOptions : ProbeOptions {
  std::string method = "GET";
  std::string path = "/";
  std::string host;  // Host header, and for https the SNI name and the name the certificate must match
  std::vector<StatusRange> expect_status{StatusRange{}};
  std::string body_contains;  // empty: the body is not checked
  std::size_t body_limit = kDefaultBodyLimit;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string ca_file;  // https: trust anchors; empty uses the system store
};

// The keys of a check mapping that the http and https probes read (README.md).
constexpr std::array<std::string_view, 8> kHttpOptionKeys = {"method",        "path",       "host",    "expect-status",
                                                             "body-contains", "body-limit", "headers", "ca-file"};
void read_http_option(HttpOptions& options, const std::string& key, const OptionReader& reader);

// "200-299,301" to ranges; false when a part is not a code or range of codes 100-599.
bool parse_status_ranges(const std::string& text, std::vector<StatusRange>& ranges);

}  // namespace cutover::health
