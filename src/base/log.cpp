// Formats structured log lines: in text, values containing spaces, quotes or '=' are quoted;
// in JSON (base/log_format.h), every key and value is a JSON string.
#include "base/log.h"

#include <atomic>
#include <chrono>
#include <ctime>

#include "base/log_format.h"

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

// A JSON string (RFC 8259 §7): quotes, backslashes and control characters escaped; bytes
// from 0x7f up too (\u00XX), so a line is valid JSON whatever bytes a value carries.
void append_json_string(std::string& line, std::string_view text) {
  line.push_back('"');
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      line.push_back('\\');
      line.push_back(c);
    } else if (c == '\n') {
      line.append("\\n");
    } else if (c == '\t') {
      line.append("\\t");
    } else if (byte < 0x20 || byte >= 0x7f) {
      line.append(fmt::format("\\u{:04x}", byte));
    } else {
      line.push_back(c);
    }
  }
  line.push_back('"');
}

std::atomic<LogFormat>& format_setting() {
  static std::atomic<LogFormat> format{LogFormat::kText};
  return format;
}

}  // namespace

void set_log_format(LogFormat format) { format_setting().store(format, std::memory_order_relaxed); }

LogFormat log_format() { return format_setting().load(std::memory_order_relaxed); }

void Logger::log(LogLevel level, std::string_view event, std::initializer_list<LogField> fields) {
  if (!enabled(level)) return;
  auto now = std::chrono::system_clock::now();
  auto seconds = std::chrono::system_clock::to_time_t(now);
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  std::string time = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                                 utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
  std::string line;
  if (log_format() == LogFormat::kJson) {
    line = "{\"time\":\"" + time + "\",\"level\":\"" + level_name(level) + "\",\"event\":";
    append_json_string(line, event);
    for (const auto& field : fields) {
      line.push_back(',');
      append_json_string(line, field.key);
      line.push_back(':');
      append_json_string(line, field.value);
    }
    line.push_back('}');
  } else {
    line = fmt::format("{} {} {}", time, level_name(level), event);
    for (const auto& field : fields) {
      line.push_back(' ');
      line.append(field.key);
      line.push_back('=');
      append_value(line, field.value);
    }
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
