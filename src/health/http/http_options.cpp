// Reading of the http and https probes' options; the keys and defaults are in README.md.
#include "health/http/http_options.h"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace cutover::health {
namespace {

constexpr std::size_t kMaxBodyLimit = 16 * 1024 * 1024;

bool read_code(std::string_view digits, int& out) {
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  return ec == std::errc() && end == digits.data() + digits.size() && out >= 100 && out <= 599;
}

}  // namespace

void read_http_option(HttpOptions& options, const std::string& key, const OptionReader& reader) {
  if (key == "method") options.method = reader.scalar(key);
  if (key == "path") options.path = reader.scalar(key);
  if (key == "host") options.host = reader.scalar(key);
  if (key == "expect-status") {
    std::vector<StatusRange> ranges;
    if (!parse_status_ranges(reader.scalar(key), ranges)) {
      reader.fail(key, "expected status codes or ranges like 200-299,301");
    }
    options.expect_status = std::move(ranges);
  }
  if (key == "body-contains") options.body_contains = reader.scalar(key);
  if (key == "body-limit") options.body_limit = reader.count(key, kMaxBodyLimit);
  if (key == "headers") options.headers = reader.string_map(key, "expected a mapping of header: value");
  if (key == "ca-file") options.ca_file = reader.file_path(key);
}

bool parse_status_ranges(const std::string& text, std::vector<StatusRange>& ranges) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = std::min(text.find(',', start), text.size());
    std::string part = text.substr(start, comma - start);
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    std::size_t dash = part.find('-');
    int low = 0;
    int high = 0;
    std::string_view view(part);
    bool ok = dash == std::string::npos ? read_code(view, low) && read_code(view, high)
                                        : read_code(view.substr(0, dash), low) && read_code(view.substr(dash + 1), high);
    if (!ok || low > high) return false;
    ranges.push_back({low, high});
    start = comma + 1;
  }
  return true;
}

}  // namespace cutover::health
