// The pool journal table: schema, durable appends and verified reads.
#include "store/pool_journal.h"

#include <openssl/evp.h>

#include <fmt/format.h>

namespace cutover::store {
namespace {

using base::ErrorCode;
using base::make_error;

constexpr const char* kPoolSchema = R"sql(
CREATE TABLE IF NOT EXISTS pool_journal(
  pool TEXT NOT NULL, version INTEGER NOT NULL, plan_version INTEGER NOT NULL, at_ms INTEGER NOT NULL,
  who TEXT NOT NULL, what TEXT NOT NULL, state TEXT NOT NULL, checksum BLOB NOT NULL,
  PRIMARY KEY(pool, version));
)sql";

constexpr const char* kColumns = "SELECT rowid, pool, version, plan_version, at_ms, who, what, state, checksum FROM pool_journal ";

using StatementPtr = std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)>;

StatementPtr prepare(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) raw = nullptr;
  return StatementPtr(raw, &sqlite3_finalize);
}

base::Error failure(sqlite3* db, std::string_view what) {
  return make_error(ErrorCode::kIo, fmt::format("pool journal: {}: {}", what, sqlite3_errmsg(db)));
}

void bind_text(sqlite3_stmt* statement, int index, const std::string& value) {
  sqlite3_bind_text(statement, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
}

std::string text_at(sqlite3_stmt* statement, int index) {
  const auto* text = sqlite3_column_text(statement, index);
  return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text));
}

// Length-prefixed fields, so no two different entries hash the same bytes.
void add_field(std::string& content, const std::string& field) {
  content += fmt::format("{}:", field.size());
  content += field;
}

}  // namespace

std::vector<std::uint8_t> pool_entry_checksum(const PoolEntry& entry) {
  std::string content;
  for (const auto& field : {entry.pool, std::to_string(entry.version), std::to_string(entry.plan_version),
                            std::to_string(entry.at_ms), entry.who, entry.what, entry.state}) {
    add_field(content, field);
  }
  std::vector<std::uint8_t> digest(EVP_MAX_MD_SIZE);
  unsigned int length = 0;
  EVP_Digest(content.data(), content.size(), digest.data(), &length, EVP_sha256(), nullptr);
  digest.resize(length);
  return digest;
}

base::Result<std::unique_ptr<PoolJournal>> PoolJournal::open(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    std::string message = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return make_error(ErrorCode::kIo, "pool journal: cannot open " + path + ": " + message);
  }
  std::unique_ptr<PoolJournal> journal(new PoolJournal(db));
  // The zone journal's connection writes the same file: wait for it instead of failing.
  sqlite3_busy_timeout(db, 5000);
  for (const char* sql : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", kPoolSchema}) {
    if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) return failure(db, sql);
  }
  return journal;
}

PoolJournal::~PoolJournal() { sqlite3_close(db_); }

base::Status PoolJournal::append(const PoolEntry& entry) {
  std::lock_guard lock(mutex_);
  auto statement = prepare(db_, "INSERT INTO pool_journal VALUES(?,?,?,?,?,?,?,?)");
  if (!statement) return failure(db_, "prepare append");
  sqlite3_stmt* s = statement.get();
  bind_text(s, 1, entry.pool);
  sqlite3_bind_int64(s, 2, static_cast<std::int64_t>(entry.version));
  sqlite3_bind_int64(s, 3, static_cast<std::int64_t>(entry.plan_version));
  sqlite3_bind_int64(s, 4, entry.at_ms);
  bind_text(s, 5, entry.who);
  bind_text(s, 6, entry.what);
  bind_text(s, 7, entry.state);
  auto checksum = pool_entry_checksum(entry);
  sqlite3_bind_blob(s, 8, checksum.data(), static_cast<int>(checksum.size()), SQLITE_TRANSIENT);
  if (sqlite3_step(s) != SQLITE_DONE) return failure(db_, "append");
  return {};
}

base::Result<std::vector<PoolEntry>> PoolJournal::select(const char* where, const std::string* pool, std::uint64_t after,
                                                         std::vector<std::int64_t>* damaged_rows) {
  auto statement = prepare(db_, std::string(kColumns) + where);
  if (!statement) return failure(db_, "prepare read");
  sqlite3_stmt* s = statement.get();
  if (pool != nullptr) {
    bind_text(s, 1, *pool);
    sqlite3_bind_int64(s, 2, static_cast<std::int64_t>(after));
  }
  std::vector<PoolEntry> entries;
  int step = SQLITE_ROW;
  while ((step = sqlite3_step(s)) == SQLITE_ROW) {
    PoolEntry entry;
    entry.pool = text_at(s, 1);
    entry.version = static_cast<std::uint64_t>(sqlite3_column_int64(s, 2));
    entry.plan_version = static_cast<std::uint64_t>(sqlite3_column_int64(s, 3));
    entry.at_ms = sqlite3_column_int64(s, 4);
    entry.who = text_at(s, 5);
    entry.what = text_at(s, 6);
    entry.state = text_at(s, 7);
    const auto* stored = static_cast<const std::uint8_t*>(sqlite3_column_blob(s, 8));
    std::vector<std::uint8_t> checksum(stored, stored + sqlite3_column_bytes(s, 8));
    if (checksum != pool_entry_checksum(entry)) {
      if (damaged_rows == nullptr) {
        return make_error(ErrorCode::kIo, fmt::format("pool journal: entry {} of pool {} is damaged", entry.version, entry.pool));
      }
      damaged_rows->push_back(sqlite3_column_int64(s, 0));
      continue;
    }
    entries.push_back(std::move(entry));
  }
  if (step != SQLITE_DONE) return failure(db_, "read");
  return entries;
}

base::Result<PoolJournalLoad> PoolJournal::load() {
  std::lock_guard lock(mutex_);
  std::vector<std::int64_t> damaged;
  auto entries = select("ORDER BY pool, version", nullptr, 0, &damaged);
  if (!entries) return entries.error();
  PoolJournalLoad load;
  if (!damaged.empty()) {
    auto last = prepare(db_, "SELECT max(rowid) FROM pool_journal");
    if (!last || sqlite3_step(last.get()) != SQLITE_ROW) return failure(db_, "read");
    if (damaged.size() > 1 || damaged.front() != sqlite3_column_int64(last.get(), 0)) {
      return make_error(ErrorCode::kIo, fmt::format("pool journal: {} damaged entries, not only the last one written",
                                                    damaged.size()));
    }
    auto drop = prepare(db_, "DELETE FROM pool_journal WHERE rowid = ?");
    if (!drop) return failure(db_, "prepare drop");
    sqlite3_bind_int64(drop.get(), 1, damaged.front());
    if (sqlite3_step(drop.get()) != SQLITE_DONE) return failure(db_, "drop torn tail");
    load.dropped_torn_tail = true;
  }
  for (auto& entry : *entries) {
    if (!load.latest.empty() && load.latest.back().pool == entry.pool) {
      load.latest.back() = std::move(entry);
    } else {
      load.latest.push_back(std::move(entry));
    }
  }
  return load;
}

base::Result<std::vector<PoolEntry>> PoolJournal::history(const std::string& pool, std::uint64_t after) {
  std::lock_guard lock(mutex_);
  return select("WHERE pool = ? AND version > ? ORDER BY version", &pool, after, nullptr);
}

}  // namespace cutover::store
