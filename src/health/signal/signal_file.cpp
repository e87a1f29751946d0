// parse_signal_file: `NAME = UP|DOWN` lines.
#include "health/signal/signal_file.h"

#include <optional>

namespace cutover::health {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

}  // namespace

SignalFile parse_signal_file(std::string_view text) {
  SignalFile out;
  std::size_t number = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    auto equals = line.find('=');
    std::string_view name = equals == std::string_view::npos ? line : trim(line.substr(0, equals));
    auto state = equals == std::string_view::npos ? std::nullopt : parse_signal_state(trim(line.substr(equals + 1)));
    if (!state || !valid_signal_name(name)) {
      out.bad_lines.push_back(number);
    } else {
      out.states[std::string(name)] = *state;
    }
  }
  return out;
}

}  // namespace cutover::health
