// The SQLite journal: schema, durable appends, verified reads and compaction.
#include "store/journal.h"

#include <openssl/evp.h>

#include <fmt/format.h>

#include "store/record_codec.h"

namespace cutover::store {
namespace {

using base::ErrorCode;
using base::make_error;

constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS journal(
  zone TEXT NOT NULL, version INTEGER NOT NULL, plan_version INTEGER NOT NULL,
  serial_before INTEGER NOT NULL, serial INTEGER NOT NULL, at_ms INTEGER NOT NULL,
  who TEXT NOT NULL, what TEXT NOT NULL, removed BLOB NOT NULL, added BLOB NOT NULL,
  checksum BLOB NOT NULL, PRIMARY KEY(zone, version));
CREATE TABLE IF NOT EXISTS marks(
  zone TEXT PRIMARY KEY, version INTEGER NOT NULL, plan_version INTEGER NOT NULL);
)sql";

// Finalizes a prepared statement when it goes out of scope.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) { ok_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) == SQLITE_OK; }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  bool ok() const { return ok_; }
  sqlite3_stmt* get() { return stmt_; }
  void text(int index, const std::string& value) {
    sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  }
  void integer(int index, std::int64_t value) { sqlite3_bind_int64(stmt_, index, value); }
  void blob(int index, const std::vector<std::uint8_t>& value) {
    sqlite3_bind_blob(stmt_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  }
  std::string column_text(int index) {
    const auto* text = sqlite3_column_text(stmt_, index);
    return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text));
  }
  std::vector<std::uint8_t> column_blob(int index) {
    const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, index));
    return data == nullptr ? std::vector<std::uint8_t>() : std::vector<std::uint8_t>(data, data + sqlite3_column_bytes(stmt_, index));
  }

 private:
  sqlite3_stmt* stmt_ = nullptr;
  bool ok_ = false;
};

base::Error db_error(sqlite3* db, std::string_view what) {
  return make_error(ErrorCode::kIo, fmt::format("journal: {}: {}", what, sqlite3_errmsg(db)));
}

void put_u64(std::vector<std::uint8_t>& out, std::uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>(value >> shift));
}

void put_text(std::vector<std::uint8_t>& out, const std::string& text) {
  put_u64(out, text.size());
  out.insert(out.end(), text.begin(), text.end());
}

}  // namespace

std::vector<std::uint8_t> entry_checksum(const JournalEntry& entry) {
  std::vector<std::uint8_t> content;
  put_text(content, entry.zone);
  put_u64(content, entry.version);
  put_u64(content, entry.plan_version);
  put_u64(content, entry.serial_before);
  put_u64(content, entry.serial);
  put_u64(content, static_cast<std::uint64_t>(entry.at_ms));
  put_text(content, entry.who);
  put_text(content, entry.what);
  auto removed = encode_records(entry.delta.removed);
  auto added = encode_records(entry.delta.added);
  put_u64(content, removed.size());
  content.insert(content.end(), removed.begin(), removed.end());
  put_u64(content, added.size());
  content.insert(content.end(), added.begin(), added.end());
  std::vector<std::uint8_t> digest(EVP_MAX_MD_SIZE);
  unsigned int length = 0;
  EVP_Digest(content.data(), content.size(), digest.data(), &length, EVP_sha256(), nullptr);
  digest.resize(length);
  return digest;
}

base::Result<std::unique_ptr<Journal>> Journal::open(const std::string& path) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) !=
      SQLITE_OK) {
    auto error = make_error(ErrorCode::kIo, fmt::format("journal {}: {}", path, sqlite3_errmsg(db)));
    sqlite3_close(db);
    return error;
  }
  std::unique_ptr<Journal> journal(new Journal(db, path));
  sqlite3_busy_timeout(db, 5000);
  // WAL: appends are sequential writes and readers (IXFR) never block the writer; FULL makes
  // every commit fsync the WAL, which is what "acknowledged means durable" needs.
  for (const char* sql : {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", kSchema}) {
    auto done = journal->exec(sql);
    if (!done) return make_error(ErrorCode::kIo, fmt::format("journal {}: {}", path, done.error().message));
  }
  return journal;
}

Journal::~Journal() { sqlite3_close(db_); }

base::Status Journal::exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message == nullptr ? sqlite3_errmsg(db_) : message;
    sqlite3_free(message);
    return make_error(ErrorCode::kIo, text);
  }
  return {};
}

base::Status Journal::append(const JournalEntry& entry) {
  std::lock_guard lock(mutex_);
  if (auto begun = exec("BEGIN IMMEDIATE"); !begun) return begun;
  Statement insert(db_,
                   "INSERT INTO journal(zone, version, plan_version, serial_before, serial, at_ms, who, what, removed, "
                   "added, checksum) VALUES(?,?,?,?,?,?,?,?,?,?,?)");
  Statement upsert(db_,
                   "INSERT INTO marks(zone, version, plan_version) VALUES(?,?,?) ON CONFLICT(zone) DO UPDATE SET "
                   "version=excluded.version, plan_version=max(plan_version, excluded.plan_version)");
  if (!insert.ok() || !upsert.ok()) {
    auto error = db_error(db_, "prepare");
    (void)exec("ROLLBACK");
    return error;
  }
  insert.text(1, entry.zone);
  insert.integer(2, static_cast<std::int64_t>(entry.version));
  insert.integer(3, static_cast<std::int64_t>(entry.plan_version));
  insert.integer(4, entry.serial_before);
  insert.integer(5, entry.serial);
  insert.integer(6, entry.at_ms);
  insert.text(7, entry.who);
  insert.text(8, entry.what);
  insert.blob(9, encode_records(entry.delta.removed));
  insert.blob(10, encode_records(entry.delta.added));
  insert.blob(11, entry_checksum(entry));
  upsert.text(1, entry.zone);
  upsert.integer(2, static_cast<std::int64_t>(entry.version));
  upsert.integer(3, static_cast<std::int64_t>(entry.plan_version));
  if (sqlite3_step(insert.get()) != SQLITE_DONE || sqlite3_step(upsert.get()) != SQLITE_DONE) {
    auto error = db_error(db_, "append");
    (void)exec("ROLLBACK");
    return error;
  }
  if (auto committed = exec("COMMIT"); !committed) {
    (void)exec("ROLLBACK");
    return committed;
  }
  return {};
}

base::Result<std::vector<JournalEntry>> Journal::select(const std::string& zone, std::uint64_t after,
                                                        std::vector<std::uint64_t>* damaged) {
  Statement query(db_,
                  "SELECT version, plan_version, serial_before, serial, at_ms, who, what, removed, added, checksum "
                  "FROM journal WHERE zone=? AND version>? ORDER BY version");
  if (!query.ok()) return db_error(db_, "prepare");
  query.text(1, zone);
  query.integer(2, static_cast<std::int64_t>(after));
  std::vector<JournalEntry> out;
  int step = 0;
  while ((step = sqlite3_step(query.get())) == SQLITE_ROW) {
    JournalEntry entry;
    entry.zone = zone;
    entry.version = static_cast<std::uint64_t>(sqlite3_column_int64(query.get(), 0));
    entry.plan_version = static_cast<std::uint64_t>(sqlite3_column_int64(query.get(), 1));
    entry.serial_before = static_cast<std::uint32_t>(sqlite3_column_int64(query.get(), 2));
    entry.serial = static_cast<std::uint32_t>(sqlite3_column_int64(query.get(), 3));
    entry.at_ms = sqlite3_column_int64(query.get(), 4);
    entry.who = query.column_text(5);
    entry.what = query.column_text(6);
    auto removed = decode_records(query.column_blob(7));
    auto added = decode_records(query.column_blob(8));
    if (removed && added) entry.delta = Delta{std::move(*removed), std::move(*added)};
    if (!removed || !added || entry_checksum(entry) != query.column_blob(9)) {
      if (damaged == nullptr) {
        return make_error(ErrorCode::kMalformed,
                          fmt::format("journal {}: entry {} of zone {} is damaged (checksum mismatch)", path_,
                                      entry.version, zone));
      }
      damaged->push_back(entry.version);
      continue;
    }
    out.push_back(std::move(entry));
  }
  if (step != SQLITE_DONE) return db_error(db_, "read");
  return out;
}

base::Result<JournalLoad> Journal::load(const std::string& zone) {
  std::lock_guard lock(mutex_);
  std::vector<std::uint64_t> damaged;
  auto entries = select(zone, 0, &damaged);
  if (!entries) return entries.error();
  JournalLoad load{std::move(*entries), false};
  if (damaged.empty()) return load;
  std::uint64_t last_good = load.entries.empty() ? 0 : load.entries.back().version;
  if (damaged.size() > 1 || damaged.front() < last_good) {
    return make_error(ErrorCode::kMalformed,
                      fmt::format("journal {}: entry {} of zone {} is damaged (checksum mismatch) and is not the last; "
                                  "refusing to replay past it",
                                  path_, damaged.front(), zone));
  }
  // A damaged last entry was never acknowledged intact: drop it so the log stays a clean prefix.
  Statement remove(db_, "DELETE FROM journal WHERE zone=? AND version=?");
  Statement mark(db_, "UPDATE marks SET version=? WHERE zone=?");
  if (!remove.ok() || !mark.ok()) return db_error(db_, "prepare");
  remove.text(1, zone);
  remove.integer(2, static_cast<std::int64_t>(damaged.front()));
  mark.integer(1, static_cast<std::int64_t>(last_good));
  mark.text(2, zone);
  if (sqlite3_step(remove.get()) != SQLITE_DONE || sqlite3_step(mark.get()) != SQLITE_DONE) {
    return db_error(db_, "drop damaged tail");
  }
  load.dropped_torn_tail = true;
  return load;
}

base::Result<std::vector<JournalEntry>> Journal::entries_after(const std::string& zone, std::uint64_t after) {
  std::lock_guard lock(mutex_);
  return select(zone, after, nullptr);
}

ZoneMark Journal::mark(const std::string& zone) {
  std::lock_guard lock(mutex_);
  Statement query(db_, "SELECT version, plan_version FROM marks WHERE zone=?");
  ZoneMark mark;
  if (!query.ok()) return mark;
  query.text(1, zone);
  if (sqlite3_step(query.get()) == SQLITE_ROW) {
    mark.version = static_cast<std::uint64_t>(sqlite3_column_int64(query.get(), 0));
    mark.plan_version = static_cast<std::uint64_t>(sqlite3_column_int64(query.get(), 1));
  }
  return mark;
}

base::Status Journal::compact(const std::string& zone, std::uint64_t version) {
  std::lock_guard lock(mutex_);
  Statement remove(db_, "DELETE FROM journal WHERE zone=? AND version<=?");
  if (!remove.ok()) return db_error(db_, "prepare");
  remove.text(1, zone);
  remove.integer(2, static_cast<std::int64_t>(version));
  if (sqlite3_step(remove.get()) != SQLITE_DONE) return db_error(db_, "compact");
  return exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

}  // namespace cutover::store
