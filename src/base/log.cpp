// Formats structured log lines; values containing spaces, quotes or '=' are quoted.
#include "base/log.h"

#include <chrono>
#include <ctime>

#include <fmt/format.h>

namespace cutover::base {
namespace {

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "DEBUG";
    case LogLevel::kInfo: return "INFO";
    case LogLevel::kWarn: return "WARN";
    case LogLevel::kError: return "ERROR";
  }
  return "INFO";
}

void append_value(std::string& line, std::string_view value) {
  bool needs_quotes = value.empty() || value.find_first_of(" \"=\t\n") != std::string_view::npos;
  if (!needs_quotes) {
    line.append(value);
    return;
  }
  line.push_back('"');
  for (char c : value) {
    if (c == '"' || c == '\\') line.push_back('\\');
    if (c == '\n') {
      line.append("\\n");
      continue;
    }
    line.push_back(c);
  }
  line.push_back('"');
}

}  // namespace

void Logger::log(LogLevel level, std::string_view event, std::initializer_list<LogField> fields) {
  if (!enabled(level)) return;
  auto now = std::chrono::system_clock::now();
  auto seconds = std::chrono::system_clock::to_time_t(now);
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  std::string line = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z {} {}", utc.tm_year + 1900,
                                 utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis,
                                 level_name(level), event);
  for (const auto& field : fields) {
    line.push_back(' ');
    line.append(field.key);
    line.push_back('=');
    append_value(line, field.value);
  }
  line.push_back('\n');
  std::lock_guard lock(mutex_);
  std::fwrite(line.data(), 1, line.size(), sink_);
  std::fflush(sink_);
}

bool parse_log_level(std::string_view text, LogLevel& out) {
  if (text == "debug") out = LogLevel::kDebug;
  else if (text == "info") out = LogLevel::kInfo;
  else if (text == "warn") out = LogLevel::kWarn;
  else if (text == "error") out = LogLevel::kError;
  else return false;
  return true;
}

}  // namespace cutover::base
