// Structured logging: one line per event, `TIME LEVEL event key=value ...`, to stderr or a file.
// Thread-safe: each line is written with a single locked write.
#pragma once

#include <cstdio>
#include <initializer_list>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>

namespace cutover::base {

enum class LogLevel { kDebug, kInfo, kWarn, kError };

struct LogField {
  std::string_view key;
  std::string value;
};

class Logger {
 public:
  // The logger writes to `sink` (not owned; stderr by default) at `min_level` and above.
  explicit Logger(std::FILE* sink = stderr, LogLevel min_level = LogLevel::kInfo)
      : sink_(sink), min_level_(min_level) {}

  void set_level(LogLevel level) { min_level_ = level; }
  bool enabled(LogLevel level) const { return level >= min_level_; }

  void log(LogLevel level, std::string_view event, std::initializer_list<LogField> fields);
  void debug(std::string_view event, std::initializer_list<LogField> fields = {}) { log(LogLevel::kDebug, event, fields); }
  void info(std::string_view event, std::initializer_list<LogField> fields = {}) { log(LogLevel::kInfo, event, fields); }
  void warn(std::string_view event, std::initializer_list<LogField> fields = {}) { log(LogLevel::kWarn, event, fields); }
  void error(std::string_view event, std::initializer_list<LogField> fields = {}) { log(LogLevel::kError, event, fields); }

 private:
  std::mutex mutex_;
  std::FILE* sink_;
  LogLevel min_level_;
};

// Parses "debug", "info", "warn", "error"; false if unknown.
bool parse_log_level(std::string_view text, LogLevel& out);

}  // namespace cutover::base
