// Journal: the durable, append-only log of every write, in SQLite (WAL mode, synchronous
// FULL, so a commit returns only after the WAL is fsynced). SQLite gives atomic appends and
// detects a torn WAL tail itself; each entry also carries a SHA-256 over its content, so a
// damaged last entry is found and dropped, and damage anywhere else stops the load with the
// entry's number. Thread-safe (one connection behind a mutex).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "store/zone_data.h"

namespace cutover::store {

struct JournalEntry {
  std::string zone;  // origin in presentation form, lowercased
  std::uint64_t version = 0;
  std::uint64_t plan_version = 0;  // 0: the write carried none
  std::uint32_t serial_before = 0;
  std::uint32_t serial = 0;
  std::int64_t at_ms = 0;  // Unix time of the write
  std::string who;
  std::string what;
  Delta delta;
};

// The fence state of a zone, kept even after its entries are compacted away.
struct ZoneMark {
  std::uint64_t version = 0;
  std::uint64_t plan_version = 0;
};

struct JournalLoad {
  std::vector<JournalEntry> entries;  // in version order
  bool dropped_torn_tail = false;     // the last entry failed its checksum and was removed
};

class Journal {
 public:
  // Opens (creating if needed) the journal database at `path`.
  static base::Result<std::unique_ptr<Journal>> open(const std::string& path);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // Appends one entry and updates the zone's mark in one transaction; returns once durable.
  base::Status append(const JournalEntry& entry);
  // Every entry of `zone`, checksums verified (see the class comment for damaged entries).
  base::Result<JournalLoad> load(const std::string& zone);
  // Entries of `zone` with version > `after`, checksums verified (IXFR, history).
  base::Result<std::vector<JournalEntry>> entries_after(const std::string& zone, std::uint64_t after);
  ZoneMark mark(const std::string& zone);
  // Deletes the entries of `zone` up to `version` (their effect now lives in the zone file).
  base::Status compact(const std::string& zone, std::uint64_t version);

  const std::string& path() const { return path_; }

 private:
  Journal(sqlite3* db, std::string path) : db_(db), path_(std::move(path)) {}
  base::Status exec(const char* sql);
  base::Result<std::vector<JournalEntry>> select(const std::string& zone, std::uint64_t after,
                                                 std::vector<std::uint64_t>* damaged);

  std::mutex mutex_;
  sqlite3* db_;
  std::string path_;
};

// The checksum stored with an entry: SHA-256 over every field.
std::vector<std::uint8_t> entry_checksum(const JournalEntry& entry);

}  // namespace cutover::store
