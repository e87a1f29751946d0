// PoolJournal: the durable history of pool writes (pools made through the API, operator
// overrides), in table `pool_journal` of the same SQLite database as the zone journal (its
// own connection; WAL, synchronous FULL: append() returns once the write is fsynced). Each
// entry holds the pool's whole state after the write, so replay reads the latest entry of
// each pool and undo reads an older one. Entries carry a SHA-256 over their content: a
// damaged entry that was the last one written is dropped (never acknowledged intact),
// damage anywhere else fails the load. Thread-safe (one connection behind a mutex).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.h"

namespace cutover::store {

struct PoolEntry {
  std::string pool;
  std::uint64_t version = 0;
  std::uint64_t plan_version = 0;  // the last applied plan version after this write
  std::int64_t at_ms = 0;          // Unix time of the write
  std::string who;
  std::string what;
  std::string state;  // the pool's state after the write, as JSON text (see writes/pool_state.h)
};

struct PoolJournalLoad {
  std::vector<PoolEntry> latest;  // the newest entry of every pool, by pool id
  bool dropped_torn_tail = false;
};

class PoolJournal {
 public:
  // Opens (creating the table if needed) the database at `path`, usually writes.journal.
  static base::Result<std::unique_ptr<PoolJournal>> open(const std::string& path);
  ~PoolJournal();
  PoolJournal(const PoolJournal&) = delete;
  PoolJournal& operator=(const PoolJournal&) = delete;

  // Appends one entry in its own transaction; returns once durable.
  base::Status append(const PoolEntry& entry);
  base::Result<PoolJournalLoad> load();
  // Entries of `pool` with version > `after`, oldest first, checksums verified.
  base::Result<std::vector<PoolEntry>> history(const std::string& pool, std::uint64_t after);

 private:
  explicit PoolJournal(sqlite3* db) : db_(db) {}
  base::Result<std::vector<PoolEntry>> select(const char* where, const std::string* pool, std::uint64_t after,
                                              std::vector<std::int64_t>* damaged_rows);

  std::mutex mutex_;
  sqlite3* db_;
};

// SHA-256 over every field of `entry`.
std::vector<std::uint8_t> pool_entry_checksum(const PoolEntry& entry);

}  // namespace cutover::store
