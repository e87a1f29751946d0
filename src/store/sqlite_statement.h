// The one SQLite helper of the journal: a prepared statement that finalizes itself, with
// typed binds and column reads, and exec() for statements without results. Not
// thread-safe; used under SqliteJournal's mutex.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace cutover::store {

class Statement {
 public:
  Statement(sqlite3* db, const char* sql) { ok_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) == SQLITE_OK; }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  bool ok() const { return ok_; }
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int step() { return sqlite3_step(stmt_); }
  void text(int index, std::string_view value) {
    sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  }
  void integer(int index, std::int64_t value) { sqlite3_bind_int64(stmt_, index, value); }
  // An empty value binds a zero-length blob, not NULL.
  void blob(int index, const std::vector<std::uint8_t>& value) {
    if (value.empty()) {
      sqlite3_bind_zeroblob(stmt_, index, 0);
    } else {
      sqlite3_bind_blob(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
    }
  }
  std::int64_t column_integer(int index) { return sqlite3_column_int64(stmt_, index); }
  std::string column_text(int index) {
    const auto* text = sqlite3_column_text(stmt_, index);
    return text == nullptr ? std::string()
                           : std::string(reinterpret_cast<const char*>(text),
                                         static_cast<std::size_t>(sqlite3_column_bytes(stmt_, index)));
  }
  std::vector<std::uint8_t> column_blob(int index) {
    const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, index));
    return data == nullptr ? std::vector<std::uint8_t>()
                           : std::vector<std::uint8_t>(data, data + sqlite3_column_bytes(stmt_, index));
  }

 private:
  sqlite3_stmt* stmt_ = nullptr;
  bool ok_ = false;
};

// Runs `sql` (one or more statements without results).
inline base::Status exec(sqlite3* db, const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message == nullptr ? sqlite3_errmsg(db) : message;
    sqlite3_free(message);
    return base::make_error(base::ErrorCode::kIo, text);
  }
  return {};
}

}  // namespace cutover::store
