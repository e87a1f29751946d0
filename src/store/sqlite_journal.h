// SqliteJournal: the JournalStorage of a single server, one SQLite database file (WAL mode,
// synchronous FULL, so a commit returns only after the WAL is fsynced). SQLite gives atomic
// appends and detects a torn WAL tail itself; each entry also carries a SHA-256 over its
// fields, so a damaged last entry is found and dropped at startup, and damage anywhere else
// stops the load naming the entry. Zone and pool entries share its two tables and its one
// connection: open() hands every caller of the same path the same object. A file written
// before the tables were shared (schema 1) is migrated on open (journal_migration.h).
// Thread-safe (one connection behind a mutex).
#pragma once

#include <sqlite3.h>

#include <memory>
#include <mutex>
#include <string>

#include "store/journal_storage.h"

namespace cutover::store {

class SqliteJournal final : public JournalStorage {
 public:
  // The journal database at `path`, opened (created, migrated) on first use; later calls
  // with the same file get the same connection while it is open. ":memory:" is always new.
  static base::Result<std::shared_ptr<SqliteJournal>> open(const std::string& path);
  ~SqliteJournal() override;
  SqliteJournal(const SqliteJournal&) = delete;
  SqliteJournal& operator=(const SqliteJournal&) = delete;

  base::Status append(const StoredEntry& entry) override;
  base::Result<StreamRead> read(const std::string& stream, std::uint64_t after, TornTail torn) override;
  StreamMark mark(const std::string& stream) override;
  base::Result<std::vector<std::string>> streams(std::string_view prefix) override;
  base::Status compact(const std::string& stream, std::uint64_t version) override;
  const std::string& where() const override { return path_; }

 private:
  SqliteJournal(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  static base::Result<std::shared_ptr<SqliteJournal>> open_new(const std::string& path);
  base::Error error(std::string_view what) const;

  std::mutex mutex_;
  sqlite3* db_;
  std::string path_;
};

// The checksum stored with an entry: SHA-256 over every field, each integer as 8 bytes
// big-endian and each text or byte string after its length as 8 bytes big-endian.
std::vector<std::uint8_t> entry_checksum(const StoredEntry& entry);

// Writes one entry row with `checksum` as given, leaving its stream's mark alone: the one
// INSERT of journal rows, used by append and by the migration of an old journal.
enum class RowWrite { kDone, kPrepareFailed, kStepFailed };
RowWrite insert_entry_row(sqlite3* db, const StoredEntry& entry, const std::vector<std::uint8_t>& checksum);

}  // namespace cutover::store
