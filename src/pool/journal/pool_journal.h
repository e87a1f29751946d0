// PoolJournal: the pool entries of the write path (pools made through the API, operator
// overrides), kept in a store::JournalStorage as the stream "pool ID" (journal_storage.h), next to
// the zone entries and through the same connection when the storage is the same file. Each
// entry's body is the pool's whole state after the write (JSON text, pool/writes/pool_state.h),
// so replay reads the latest entry of each pool and undo reads an older one. The storage
// gives durability, checksums and the torn-tail rule (a damaged last entry of a pool is
// dropped, damage anywhere else fails the load). Thread-safe (the storage is).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "store/journal_storage.h"

namespace cutover::pool {

struct PoolEntry : store::EntryHeader {
  std::string pool;
  std::string state;  // the pool's state after the write, as JSON text (see pool/writes/pool_state.h)
};

// A pool as the journal holds it: its newest entry and its stream's mark (version and last
// applied plan version; the entry's own plan_version is the one its write carried).
struct JournaledPool {
  PoolEntry latest;
  store::StreamMark mark;
};

struct PoolJournalLoad {
  std::vector<JournaledPool> pools;  // by pool id
  bool dropped_torn_tail = false;
};

// A pool entry read back from its stored form.
PoolEntry pool_entry(const store::StoredEntry& stored);
std::vector<std::uint8_t> pool_entry_body(const std::string& state);

class PoolJournal {
 public:
  // Opens (creating if needed) the database at `path`, usually writes.journal: the same
  // connection as the zone journal's when that is open (SqliteJournal::open).
  static base::Result<std::unique_ptr<PoolJournal>> open(const std::string& path);
  explicit PoolJournal(std::shared_ptr<store::JournalStorage> storage) : storage_(std::move(storage)) {}

  // Appends one entry in its own transaction; returns once durable (tests; writes append
  // through the write pipeline).
  base::Status append(const PoolEntry& entry);
  base::Result<PoolJournalLoad> load();
  // Entries of `pool` with version > `after`, oldest first, checksums verified.
  base::Result<std::vector<PoolEntry>> history(const std::string& pool, std::uint64_t after);

  const std::shared_ptr<store::JournalStorage>& storage() const { return storage_; }

 private:
  std::shared_ptr<store::JournalStorage> storage_;
};

}  // namespace cutover::pool
