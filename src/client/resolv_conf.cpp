// resolv.conf(5) reading: one keyword per line, '#' or ';' starts a comment.
#include "client/resolv_conf.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "client/query.h"

namespace cutover::client {
namespace {

using base::ErrorCode;
using base::make_error;

struct Word {
  std::string_view text;
  std::size_t column = 0;  // 1-based
};

std::vector<Word> split_words(std::string_view line) {
  std::vector<Word> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    if (i >= line.size() || line[i] == '#' || line[i] == ';') break;
    std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    words.push_back({line.substr(start, i - start), start + 1});
  }
  return words;
}

// glibc clamps these options to its limits (RES_MAXNDOTS, RES_MAXRETRANS, RES_MAXRETRY)
// rather than refusing the file; so do we.
std::optional<int> small_number(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

}  // namespace

base::Result<ResolverConfig> parse_resolv_conf(std::string_view text, const std::string& path) {
  ResolverConfig config;
  config.source = path;
  std::size_t line_number = 0;
  std::size_t position = 0;
  while (position <= text.size()) {
    std::size_t end = text.find('\n', position);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(position, end - position);
    position = end + 1;
    ++line_number;
    auto words = split_words(line);
    if (words.empty()) continue;
    auto where = [&](const Word& word) { return fmt::format("{}:{}:{}", path, line_number, word.column); };
    std::string_view keyword = words[0].text;
    if (keyword == "nameserver") {
      if (words.size() < 2) return make_error(ErrorCode::kMalformed, where(words[0]) + ": nameserver needs an address");
      auto server = parse_server(words[1].text, 53);
      if (!server) {
        return make_error(ErrorCode::kMalformed,
                          fmt::format("{}: nameserver '{}' is not an address (ADDRESS, ADDRESS:PORT or [IPv6]:PORT)",
                                      where(words[1]), words[1].text));
      }
      if (config.nameservers.size() < kMaxNameservers) config.nameservers.push_back(*server);
    } else if (keyword == "search" || keyword == "domain") {
      config.search.clear();
      for (std::size_t i = 1; i < words.size(); ++i) {
        std::string absolute(words[i].text);
        if (absolute.back() != '.') absolute += '.';
        auto name = dns::Name::from_text(absolute);
        if (!name) {
          return make_error(ErrorCode::kMalformed, fmt::format("{}: search domain '{}': {}", where(words[i]),
                                                               words[i].text, name.error().message));
        }
        if (!name->is_root()) config.search.push_back(*name);
      }
    } else if (keyword == "options") {
      for (std::size_t i = 1; i < words.size(); ++i) {
        std::string_view option = words[i].text;
        auto colon = option.find(':');
        if (colon == std::string_view::npos) continue;  // rotate, edns0, ...: not ours to honour
        std::string_view key = option.substr(0, colon);
        if (key != "ndots" && key != "timeout" && key != "attempts") continue;
        auto value = small_number(option.substr(colon + 1));
        if (!value) {
          return make_error(ErrorCode::kMalformed,
                            fmt::format("{}: options {}: '{}' is not a whole number", where(words[i]), key,
                                        option.substr(colon + 1)));
        }
        if (key == "ndots") config.ndots = std::min(*value, 15);
        if (key == "timeout") config.timeout = std::chrono::seconds(std::clamp(*value, 1, 30));
        if (key == "attempts") config.attempts = std::clamp(*value, 1, 5);
      }
    }
  }
  if (config.nameservers.empty()) config.nameservers.push_back(*parse_server("127.0.0.1", 53));
  return config;
}

base::Result<ResolverConfig> read_resolv_conf(const std::string& path) {
  std::ifstream in(path);
  if (!in) return make_error(ErrorCode::kIo, fmt::format("{}: cannot read the resolver configuration", path));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_resolv_conf(text.str(), path);
}

}  // namespace cutover::client
