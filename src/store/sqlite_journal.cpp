// The SQLite journal: schema, shared connection, compare-and-set appends, verified reads
// with the torn-tail rule, and compaction.
#include "store/sqlite_journal.h"

#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "store/checksum_content.h"
#include "store/journal_migration.h"
#include "store/sqlite_statement.h"

namespace cutover::store {
namespace {

using base::ErrorCode;
using base::make_error;

// Schema 2: one table of entries and one of marks for every stream (PRAGMA user_version 2).
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS journal(
  stream TEXT NOT NULL, version INTEGER NOT NULL, plan_version INTEGER NOT NULL, at_ms INTEGER NOT NULL,
  who TEXT NOT NULL, what TEXT NOT NULL, body BLOB NOT NULL, checksum BLOB NOT NULL,
  PRIMARY KEY(stream, version));
CREATE TABLE IF NOT EXISTS marks(
  stream TEXT PRIMARY KEY, version INTEGER NOT NULL, plan_version INTEGER NOT NULL);
PRAGMA user_version=2;
)sql";

// Every open journal by file, so that zone and pool writes share one connection.
std::mutex& registry_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::map<std::string, std::weak_ptr<SqliteJournal>>& registry() {
  static std::map<std::string, std::weak_ptr<SqliteJournal>> open;
  return open;
}

}  // namespace

std::vector<std::uint8_t> entry_checksum(const StoredEntry& entry) {
  std::vector<std::uint8_t> content;
  put_bytes(content, entry.stream);
  put_u64(content, entry.version);
  put_u64(content, entry.plan_version);
  put_u64(content, static_cast<std::uint64_t>(entry.at_ms));
  put_bytes(content, entry.who);
  put_bytes(content, entry.what);
  put_bytes(content, entry.body);
  return sha256(content.data(), content.size());
}

base::Result<std::shared_ptr<SqliteJournal>> SqliteJournal::open(const std::string& path) {
  if (path == ":memory:") return open_new(path);
  std::error_code ignored;
  std::string key = std::filesystem::weakly_canonical(path, ignored).string();
  if (key.empty()) key = path;
  std::lock_guard lock(registry_mutex());
  if (auto existing = registry()[key].lock()) return existing;
  auto opened = open_new(path);
  if (opened) registry()[key] = *opened;
  return opened;
}

base::Result<std::shared_ptr<SqliteJournal>> SqliteJournal::open_new(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    auto error = make_error(ErrorCode::kIo, fmt::format("journal {}: {}", path, db ? sqlite3_errmsg(db) : "out of memory"));
    sqlite3_close(db);
    return error;
  }
  std::shared_ptr<SqliteJournal> journal(new SqliteJournal(db, path));
  // Another process (the `cutover journal` tools, a test) may hold the file for a moment.
  sqlite3_busy_timeout(db, 5000);
  // WAL: appends are sequential writes and readers (IXFR) never block the writer; FULL makes
  // every commit fsync the WAL, which is what "acknowledged means durable" needs.
  for (const char* sql : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "BEGIN IMMEDIATE"}) {
    if (auto done = exec(db, sql); !done) {
      return make_error(ErrorCode::kIo, fmt::format("journal {}: {}", path, done.error().message));
    }
  }
  // Schema 1 tables are renamed out of the way, schema 2 created, their rows carried over,
  // all in one transaction: a crash during the migration leaves the file as it was.
  bool old = is_schema_1(db);
  base::Status created = old ? rename_schema_1(db) : base::Status{};
  if (created) created = exec(db, kSchema);
  if (created && old) created = migrate_schema_1(db);
  if (created) created = exec(db, "COMMIT");
  if (!created) {
    (void)exec(db, "ROLLBACK");
    return make_error(ErrorCode::kIo, fmt::format("journal {}: {}", path, created.error().message));
  }
  return journal;
}

SqliteJournal::~SqliteJournal() { sqlite3_close(db_); }

base::Error SqliteJournal::error(std::string_view what) const {
  return make_error(ErrorCode::kIo, fmt::format("journal {}: {}: {}", path_, what, sqlite3_errmsg(db_)));
}

base::Status SqliteJournal::append(const StoredEntry& entry) {
  std::lock_guard lock(mutex_);
  if (auto begun = exec(db_, "BEGIN IMMEDIATE"); !begun) return begun;
  auto fail = [this](base::Error error) -> base::Status {
    (void)exec(db_, "ROLLBACK");
    return error;
  };
  {
    Statement current(db_, "SELECT version FROM marks WHERE stream=?");
    if (!current.ok()) return fail(error("prepare"));
    current.text(1, entry.stream);
    std::uint64_t at = current.step() == SQLITE_ROW ? static_cast<std::uint64_t>(current.column_integer(0)) : 0;
    if (at + 1 != entry.version) {
      return fail(make_error(ErrorCode::kInvalidArgument,
                             fmt::format("journal {}: {} is at version {}, not {}: another writer appended first",
                                         path_, entry.stream, at, entry.version - 1)));
    }
  }
  Statement upsert(db_,
                   "INSERT INTO marks(stream, version, plan_version) VALUES(?,?,?) ON CONFLICT(stream) DO UPDATE SET "
                   "version=excluded.version, plan_version=max(plan_version, excluded.plan_version)");
  if (!upsert.ok()) return fail(error("prepare"));
  RowWrite row = insert_entry_row(db_, entry, entry_checksum(entry));
  if (row == RowWrite::kPrepareFailed) return fail(error("prepare"));
  upsert.text(1, entry.stream);
  upsert.integer(2, static_cast<std::int64_t>(entry.version));
  upsert.integer(3, static_cast<std::int64_t>(entry.plan_version));
  if (row != RowWrite::kDone || upsert.step() != SQLITE_DONE) return fail(error("append"));
  if (auto committed = exec(db_, "COMMIT"); !committed) return fail(committed.error());
  return {};
}

RowWrite insert_entry_row(sqlite3* db, const StoredEntry& entry, const std::vector<std::uint8_t>& checksum) {
  Statement insert(db,
                   "INSERT INTO journal(stream, version, plan_version, at_ms, who, what, body, checksum) "
                   "VALUES(?,?,?,?,?,?,?,?)");
  if (!insert.ok()) return RowWrite::kPrepareFailed;
  insert.text(1, entry.stream);
  insert.integer(2, static_cast<std::int64_t>(entry.version));
  insert.integer(3, static_cast<std::int64_t>(entry.plan_version));
  insert.integer(4, entry.at_ms);
  insert.text(5, entry.who);
  insert.text(6, entry.what);
  insert.blob(7, entry.body);
  insert.blob(8, checksum);
  return insert.step() == SQLITE_DONE ? RowWrite::kDone : RowWrite::kStepFailed;
}

base::Result<StreamRead> SqliteJournal::read(const std::string& stream, std::uint64_t after, TornTail torn) {
  std::lock_guard lock(mutex_);
  Statement query(db_,
                  "SELECT version, plan_version, at_ms, who, what, body, checksum FROM journal "
                  "WHERE stream=? AND version>? ORDER BY version");
  if (!query.ok()) return error("prepare");
  query.text(1, stream);
  query.integer(2, static_cast<std::int64_t>(after));
  StreamRead read;
  std::optional<std::uint64_t> damaged;
  int step = 0;
  while ((step = query.step()) == SQLITE_ROW) {
    StoredEntry entry;
    entry.stream = stream;
    entry.version = static_cast<std::uint64_t>(query.column_integer(0));
    entry.plan_version = static_cast<std::uint64_t>(query.column_integer(1));
    entry.at_ms = query.column_integer(2);
    entry.who = query.column_text(3);
    entry.what = query.column_text(4);
    entry.body = query.column_blob(5);
    bool intact = entry_checksum(entry) == query.column_blob(6);
    // An entry after a damaged one: the damaged one was not the last.
    if (damaged || (!intact && torn == TornTail::kFail)) {
      std::uint64_t first = damaged.value_or(entry.version);
      return make_error(ErrorCode::kMalformed,
                        fmt::format("journal {}: entry {} of {} is damaged (checksum mismatch){}", path_, first, stream,
                                    torn == TornTail::kDrop ? " and is not the last; refusing to replay past it" : ""));
    }
    if (!intact) {
      damaged = entry.version;
      continue;
    }
    read.entries.push_back(std::move(entry));
  }
  if (step != SQLITE_DONE) return error("read");
  if (!damaged) return read;
  // A damaged last entry was never acknowledged intact: drop it so the log stays a clean
  // prefix, and move the mark back so the next write takes its version.
  Statement remove(db_, "DELETE FROM journal WHERE stream=? AND version=?");
  Statement mark(db_, "UPDATE marks SET version=? WHERE stream=?");
  if (!remove.ok() || !mark.ok()) return error("prepare");
  remove.text(1, stream);
  remove.integer(2, static_cast<std::int64_t>(*damaged));
  mark.integer(1, static_cast<std::int64_t>(*damaged - 1));
  mark.text(2, stream);
  if (remove.step() != SQLITE_DONE || mark.step() != SQLITE_DONE) return error("drop damaged tail");
  read.dropped_torn_tail = true;
  return read;
}

StreamMark SqliteJournal::mark(const std::string& stream) {
  std::lock_guard lock(mutex_);
  Statement query(db_, "SELECT version, plan_version FROM marks WHERE stream=?");
  StreamMark mark;
  if (!query.ok()) return mark;
  query.text(1, stream);
  if (query.step() == SQLITE_ROW) {
    mark.version = static_cast<std::uint64_t>(query.column_integer(0));
    mark.plan_version = static_cast<std::uint64_t>(query.column_integer(1));
  }
  return mark;
}

base::Result<std::vector<std::string>> SqliteJournal::streams(std::string_view prefix) {
  std::lock_guard lock(mutex_);
  Statement query(db_, "SELECT stream FROM marks WHERE substr(stream, 1, ?)=? ORDER BY stream");
  if (!query.ok()) return error("prepare");
  query.integer(1, static_cast<std::int64_t>(prefix.size()));
  query.text(2, prefix);
  std::vector<std::string> names;
  int step = 0;
  while ((step = query.step()) == SQLITE_ROW) names.push_back(query.column_text(0));
  if (step != SQLITE_DONE) return error("read");
  return names;
}

base::Status SqliteJournal::compact(const std::string& stream, std::uint64_t version) {
  std::lock_guard lock(mutex_);
  Statement remove(db_, "DELETE FROM journal WHERE stream=? AND version<=?");
  if (!remove.ok()) return error("prepare");
  remove.text(1, stream);
  remove.integer(2, static_cast<std::int64_t>(version));
  if (remove.step() != SQLITE_DONE) return error("compact");
  return exec(db_, "PRAGMA wal_checkpoint(TRUNCATE)");
}

}  // namespace cutover::store
